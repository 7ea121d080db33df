import IMUCLI
import IMUCalibration

/// The live guided session on a sensor (or the simulator): raw samples, never the saved
/// calibration, through the state machine, with prompts and a progress bar. Nil when it stopped
/// because the reader of standard output went away (`OutputReader`): nothing is computed or
/// saved from the faces captured so far (a calibration needs all six), and what was saved
/// before stays as it was.
func guided(_ args: ParsedArguments, settings: SessionSettings, json: Bool) async throws -> Calibration? {
    let source = try await OwnThread.run(name: WorkThread.name) { try openSource(args) }
    let out = json ? Terminal.standardError : Terminal.standardOutput
    let info = source.info
    guard info.capabilities.accelerometer else {
        throw NoSensorError("\(info.name) has no accelerometer to calibrate",
                            fix: "choose the IMU with --source (imu-info lists the sensors)")
    }
    out.write("Calibrating \(info.name) (key \(info.calibrationKey)); raw readings, any saved calibration is ignored.\n"
              + "Use a level table. Each face: put it down, let go, keep still for \(fixed(settings.captureSeconds, 0)) s.\n")
    var text = SessionText(out: out)
    var session = SixPositionSession(settings: settings)
    for e in session.start() { text.show(e) }
    let enter = try EnterKey()
    var readerGone = false
    loop: for try await batch in source.batches() {
        // Between batches (a hand-over at most, 1 s: `HandOver.seconds`): a live session never
        // ends by itself.
        if OutputReader.isGone { readerGone = true; break }
        for sample in batch {
            if enter.takePress() { session.confirm() }
            for e in session.feed(sample) { text.show(e) }
            if session.isFinished { break loop }
        }
    }
    LossReport.write(source.losses, tool: "imu-calibrate")
    if readerGone {
        let done = Face.guidedOrder.filter { session.captures[$0] != nil }.count
        Terminal.standardError.write("imu-calibrate: session stopped with \(done) of \(Face.guidedOrder.count) faces captured: nothing computed or saved\n")
        return nil
    }
    guard session.isFinished else {
        let missing = Face.guidedOrder.filter { session.captures[$0] == nil }
        throw CalibrationError.missingFaces(missing)
    }
    return try session.calibration(key: info.calibrationKey, sourceName: info.name, created: now())
}
