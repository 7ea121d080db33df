import FoundationEssentials
import IMUCalibration
import IMUCore
import Pedometer

/// The walker's own figures for `imu-steps`: the saved profile (`WalkerProfileStore`), overridden
/// by `--height`, `--stride` and `--floor-height`; `--remember` saves what was given.
public enum WalkerSettings {
    public static let options: [OptionSpec] = [
        OptionSpec("height", value: .number("M"), help: "your height in metres, for the default stride (default 1.75)"),
        OptionSpec("stride", value: .text("C:M,C:M"), help: "your stride at two paces (steps/s:metres per step), e.g. 1.8:0.72,2.1:0.85; imu-steps --walked measures it"),
        OptionSpec("floor-height", value: .number("M"), help: "height of one floor in metres (default 3.0)"),
        OptionSpec("remember", help: "save --height, --stride and --floor-height as your defaults (~/.config/imukit/profile.json)"),
    ]

    /// The configuration to count with, and a line for the user when a saved profile was used
    /// or saved (nil otherwise).
    public static func configuration(from args: ParsedArguments,
                                     environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> (configuration: PedometerConfiguration, message: String?) {
        try args.exclusive(["height", "stride"])
        var given = WalkerProfile()
        // A height in centimetres (--height 180, --floor-height 300) is the likely slip: say the metres it means.
        for (name, range) in [("height", WalkerProfile.heights), ("floor-height", WalkerProfile.floorHeights)] {
            if let text = args.string(name), let cm = DecimalParser.parse(text), range.contains(cm / 100) {
                throw UsageError("--\(name) is in metres; \(text) would be \(text) m", command: args.command,
                                 fix: "give it in metres: --\(name) \((cm / 100).asWritten)")
            }
        }
        given.heightMeters = try args.double("height", in: WalkerProfile.heights)
        given.floorHeightMeters = try args.double("floor-height", in: WalkerProfile.floorHeights)
        if let text = args.string("stride") { given.paces = try parsePaces(text, command: args.command) }
        let saved = try WalkerProfileStore.load(environment: environment)
        let profile = (saved?.profile ?? WalkerProfile()).updated(with: given)
        var message: String?
        if args.flag("remember") {
            guard given != WalkerProfile() else {
                throw UsageError("--remember needs --height, --stride or --floor-height to save", command: args.command,
                                 fix: "give what to save with it, e.g. imu-steps --height 1.75 --remember")
            }
            let path = try WalkerProfileStore.save(profile, environment: environment)
            message = "saved your profile (\(profile.summary)) to \(path)"
        } else if let saved, given != profile {
            message = "using your profile from \(saved.path) (\(profile.summary))"
        }
        return (configuration(for: profile), message)
    }

    static func configuration(for profile: WalkerProfile) -> PedometerConfiguration {
        var configuration = PedometerConfiguration()
        if let h = profile.heightMeters { configuration.userHeightMeters = h }
        if let f = profile.floorHeightMeters { configuration.floorHeightMeters = f }
        if let p = profile.paces, p.count == 2 { configuration.strideCalibration = StrideModel(calibratedFrom: p[0], p[1]) }
        return configuration
    }

    /// `--stride C:M,C:M`: two paces, each cadence (steps/s) and metres per step, whose straight
    /// line is the stride model (`StrideModel(calibratedFrom:)`).
    static func parsePaces(_ text: String, command: String) throws -> [(cadence: Double, stride: Double)] {
        let usage = "--stride needs two paces as CADENCE:METRES,CADENCE:METRES (steps/s and metres per step), e.g. 1.8:0.72,2.1:0.85"
        let paces = text.split(separator: ",").map { pair -> (cadence: Double, stride: Double)? in
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let c = DecimalParser.parse(String(parts[0])), let m = DecimalParser.parse(String(parts[1])) else { return nil }
            return (c, m)
        }
        // Two pairs, one not two plain numbers (`1.8:1e400`, `1.8:fast`, `1.8`): name that pair; it
        // said "write two pairs separated by a comma" to a user who had.
        if paces.count == 2, let bad = paces.firstIndex(where: { $0 == nil }) {
            let pair = text.split(separator: ",")[bad]
            throw UsageError("--stride: '\(pair)' is not CADENCE:METRES (two plain numbers, steps/s and metres per step); got '\(text)'",
                             command: command, fix: "write that pace as two numbers, e.g. 1.8:0.72: --stride 1.8:0.72,2.1:0.85; imu-steps --walked 100 measures one pair")
        }
        guard paces.count == 2, let first = paces[0], let second = paces[1] else {
            // One pace measured is half the calibration: say how the other is measured.
            let fix = paces.count == 1 && paces[0] != nil
                ? "measure a second pace, brisker or slower: imu-steps --walked 100 while you walk 100 m, then give both, --stride \(text),C:M"
                : "write two pairs separated by a comma, e.g. --stride 1.8:0.72,2.1:0.85; imu-steps --walked 100 measures one pair"
            throw UsageError("\(usage); got '\(text)'", command: command, fix: fix)
        }
        if let problem = WalkerProfile.checkPaces(first, second) {
            throw UsageError("--stride: \(problem); got '\(text)'", command: command,
                             fix: "give two paces you walked, e.g. --stride 1.8:0.72,2.1:0.85: imu-steps --walked 100 measures each while you walk 100 m")
        }
        return [first, second]
    }
}
