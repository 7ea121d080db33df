import IMUCLI
import IMUCore
import Pedometer

/// `--stride C:M,C:M` (two calibrated paces) and `--walked M` (measures one pace).
enum StrideOption {
    /// Two paces, each cadence (steps/s) and metres per step: the line through them is the stride
    /// model (`StrideModel(calibratedFrom:)`).
    static func parse(_ text: String, command: String) throws -> StrideModel {
        let usage = "--stride needs two paces as CADENCE:METRES,CADENCE:METRES (steps/s and metres per step), e.g. 1.8:0.72,2.1:0.85"
        let paces = text.split(separator: ",").map { pair -> (Double, Double)? in
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let c = DecimalParser.parse(String(parts[0])), let m = DecimalParser.parse(String(parts[1])) else { return nil }
            return (c, m)
        }
        guard paces.count == 2, let first = paces[0], let second = paces[1] else {
            throw UsageError("\(usage); got '\(text)'", command: command)
        }
        // Plausible human paces: 0.5 to 4 steps/s, 0.2 to 2.5 m per step.
        for (c, m) in [first, second] where !(0.5...4).contains(c) || !(0.2...2.5).contains(m) {
            throw UsageError("--stride pace \(c):\(m) is outside 0.5–4 steps/s and 0.2–2.5 m per step", command: command)
        }
        guard abs(first.0 - second.0) >= 0.1, let model = StrideModel(calibratedFrom: first, second) else {
            throw UsageError("--stride needs two different paces (cadences at least 0.1 steps/s apart), got '\(text)'", command: command)
        }
        return model
    }

    /// After a walk of `walked` metres: the pace to give `--stride`, on standard error (standard
    /// output may be JSON Lines).
    static func reportPace(walked: Double, _ snapshot: PedometerSnapshot, command: String) {
        let err = Terminal.standardError
        guard snapshot.steps > 0, snapshot.activeDuration > 0 else {
            err.write("\(command): no steps were counted, so --walked cannot give a pace; walk at least 20 m\n")
            err.flush()
            return
        }
        let cadence = Double(snapshot.steps) / snapshot.activeDuration
        let stride = walked / Double(snapshot.steps)
        err.write("\(command): your pace over \(Int(walked.rounded())) m: \(fixed(cadence, 2)) steps/s, \(fixed(stride, 3)) m per step "
                  + "(\(snapshot.steps) steps in \(fixed(snapshot.activeDuration, 1)) s walking). "
                  + "Walk it again at another pace, then use --stride \(fixed(cadence, 2)):\(fixed(stride, 3)),CADENCE:METRES\n")
        err.flush()
    }

    /// Locale-independent fixed-point text.
    static func fixed(_ x: Double, _ decimals: Int) -> String { JSONLine.number(x, decimals: decimals) }
}
