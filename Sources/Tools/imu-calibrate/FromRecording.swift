import IMUCLI
import IMUCalibration

/// `--from-recording FILE`: replays a recorded session through the same state machine, faces in
/// any order. The recording must hold raw readings: calibrating calibrated data would fit the
/// residue of the old calibration, not the sensor.
func fromRecording(_ file: String, key: String?, settings: SessionSettings, needKey: Bool) throws -> Calibration {
    let reader = try ReplayInput.reader(file, option: "--from-recording", command: "imu-calibrate")
    guard reader.capabilities.accelerometer else {
        throw RecordingError(file: file, line: 0, message: "no accelerometer columns (ax, ay, az) in the header")
    }
    if reader.comments.contains(where: { $0.trimmingPrefix(" ").hasPrefix("calibration: applied") }) {
        throw RecordingError(file: file, line: 0,
                             message: "recorded with a calibration applied; record the session again with imu-record --raw")
    }
    let recordedKey = reader.comments.lazy.compactMap { c -> String? in
        let t = c.trimmingPrefix(" ")
        return t.hasPrefix("calibration-key: ") ? String(t.dropFirst("calibration-key: ".count)) : nil
    }.first
    guard let useKey = key ?? recordedKey ?? (needKey ? nil : "recording") else {
        throw UsageError("\(file) does not name its sensor (no '# calibration-key:' line); give --key KEY to save", command: "imu-calibrate")
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
    for n in notes { Terminal.standardError.write("imu-calibrate: \(file): \(n)\n") }
    if let note = reader.endNote { Terminal.standardError.write("imu-calibrate: \(note)\n") }
    Terminal.standardError.flush()
    return try session.calibration(key: useKey, sourceName: sensor, created: now())
}

extension String {
    func trimmingPrefix(_ p: Character) -> Substring { self.drop { $0 == p } }
}
