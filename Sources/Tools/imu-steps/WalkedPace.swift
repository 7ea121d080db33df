import IMUCLI
import IMUCalibration
import IMUCore
import Pedometer

/// `--walked M`: measures one pace for `--stride` (see `WalkerSettings`).
enum WalkedPace {
    /// After a walk of `walked` metres: the pace to give `--stride`, on standard error (standard
    /// output may be JSON Lines). Returns false when no pace could be given (exit 1: a script
    /// running `imu-steps --walked 100 && …` must not take "no pace" for one).
    static func reportPace(walked: Double, _ snapshot: PedometerSnapshot, command: String) -> Bool {
        let err = Terminal.standardError
        guard snapshot.steps > 0, snapshot.activeDuration > 0 else {
            err.write("\(command): no steps were counted, so --walked cannot give a pace; walk at least 20 m\n")
            err.flush()
            return false
        }
        let cadence = Double(snapshot.steps) / snapshot.activeDuration
        let stride = walked / Double(snapshot.steps)
        if let problem = WalkerProfile.checkPace(cadence: cadence, stride: stride) {
            // Never suggest a --stride that --stride refuses.
            err.write("\(command): \(counted(snapshot.steps, "step")) over \(Int(walked.rounded())) m: \(problem), so it cannot be used for --stride; "
                      + "check the distance and walk it again at a steady pace\n")
            err.flush()
            return false
        }
        err.write("\(command): your pace over \(Int(walked.rounded())) m: \(fixed(cadence, 2)) steps/s, \(fixed(stride, 3)) m per step "
                  + "(\(counted(snapshot.steps, "step")) in \(fixed(snapshot.activeDuration, 1)) s walking). "
                  + "Walk it again at another pace, then use --stride \(fixed(cadence, 2)):\(fixed(stride, 3)),CADENCE:METRES\n")
        err.flush()
        return true
    }

    /// Locale-independent fixed-point text.
    static func fixed(_ x: Double, _ decimals: Int) -> String { JSONLine.number(x, decimals: decimals) }
}
