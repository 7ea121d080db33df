import IMUCLI
import IMUCalibration

/// `--from-recording FILE`: replays a recorded session through the same state machine, faces in
/// any order. The recording must hold raw readings: calibrating calibrated data would fit the
/// residue of the old calibration, not the sensor.
func fromRecording(_ file: String, key: String?, settings: SessionSettings, needKey: Bool) throws -> Calibration {
    let reader = try ReplayInput.reader(file, option: "--from-recording", command: "imu-calibrate")
    // Both said what was wrong and no fix line (exit 2, a bad file).
    guard reader.capabilities.accelerometer else {
        var error = RecordingError(file: file, line: 0, message: "no accelerometer columns (ax, ay, az) in the header")
        error.fix = "record the six-position session from a sensor with an accelerometer: imu-record --raw -o six.csv (docs/calibration.md)"
        throw error
    }
    if reader.comments.contains(where: { $0.trimmingPrefix(" ").hasPrefix("calibration: applied") }) {
        var error = RecordingError(file: file, line: 0,
                                   message: "recorded with a calibration applied; record the session again with imu-record --raw")
        error.fix = "a calibration is fitted to raw readings: record the session again with imu-record --raw -o six.csv"
        throw error
    }
    let recordedKey = reader.comments.lazy.compactMap { c -> String? in
        let t = c.trimmingPrefix(" ")
        return t.hasPrefix("calibration-key: ") ? String(t.dropFirst("calibration-key: ".count)) : nil
    }.first
    guard let useKey = key ?? recordedKey ?? (needKey ? nil : "recording") else {
        throw UsageError("\(file) does not name its sensor (no '# calibration-key:' line); give --key KEY to save", command: "imu-calibrate",
                         fix: "name the sensor it was recorded from, as imu-info lists it: imu-calibrate --six-position --from-recording \(RecordingError.shellQuoted(file)) --key i2c:/dev/i2c-1@0x68 --save")
    }
    let sensor = reader.comments.lazy.compactMap { c -> String? in
        let t = c.trimmingPrefix(" ")
        return t.hasPrefix("sensor: ") ? String(t.dropFirst("sensor: ".count)) : nil
    }.first ?? "recording \(reader.name)"
    var session = SixPositionSession(settings: settings)
    var notes: [String] = []
    while let s = try reader.next() {
        for e in session.feed(s) {
            switch e {
            case .motionDuringCapture(let f): notes.append("moved while averaging \(f.rawValue) up (discarded)")
            case .repeatedFace(let f, _): notes.append("\(f.rawValue) up appears again (first capture kept)")
            default: break
            }
        }
        if session.isFinished { break }
    }
    // Escaped: the file name is the user's, and may hold terminal control sequences.
    for n in notes { Terminal.standardError.write("imu-calibrate: \(file.escapedOnOneLine): \(n)\n") }
    if let note = reader.endNote { Terminal.standardError.write("imu-calibrate: \(note.escapedForTerminal)\n") }
    Terminal.standardError.flush()
    let result = Result { try session.calibration(key: useKey, sourceName: sensor, created: now()) }
    if case .failure(let error) = result, case .missingFaces(let faces)? = error as? CalibrationError {
        throw RecordingMissesFaces(file: file, faces: faces, settings: settings)
    }
    return try result.get()
}

/// A recorded session without every face: the live session's fix ("let the device rest on each
/// missing face") cannot be followed on a file; the session has to be recorded again. A bad file
/// for what was asked (exit 2, docs/CONTRACTS.md §4), as one with no accelerometer is; it exited
/// 1, "runtime failure", though nothing failed at run time.
struct RecordingMissesFaces: DiagnosableError {
    var file: String
    var faces: [Face]
    var settings: SessionSettings
    var description: String {
        "\(file): the recording does not rest still on every face; missing: \(faces.map(\.rawValue).joined(separator: " ")) "
            + "(six-position calibration needs all six)"
    }
    var fix: String? {
        let seconds = (settings.settleSeconds + settings.captureSeconds).asWritten
        return "record the session again with the device still for \(seconds) s or more on each face "
            + "(imu-record --raw -o six.csv), or calibrate live: imu-calibrate --six-position"
    }
    var exitStatus: ExitStatus { .usage }
}

extension String {
    func trimmingPrefix(_ p: Character) -> Substring { self.drop { $0 == p } }
}
