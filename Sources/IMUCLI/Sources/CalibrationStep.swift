import IMUCalibration

extension SourceSelection {
    /// Wraps `source` in the calibration saved for it, unless `--raw`, and tells the user on
    /// standard error ("COMMAND: using calibration for KEY from PATH"). Returns that message
    /// (nil when raw or when none is saved) so a tool can also record it.
    public static func applySavedCalibration(to source: inout any SampleSource, args: ParsedArguments) throws -> String? {
        guard !args.flag("raw") else { return nil }
        let (calibrated, message) = try SavedCalibration.apply(to: source)
        source = calibrated
        if let message {
            Terminal.standardError.write("\(args.command): \(message)\n")
            Terminal.standardError.flush()
        }
        return message
    }

    /// The file holding the calibration saved for `key` (the user's, else the system's); nil
    /// when none is. A file that exists but cannot be read or parsed is an error.
    public static func savedCalibrationPath(for key: String) throws -> String? {
        try CalibrationStore.standard().load(key: key)?.path
    }
}
