/// Applies a sensor's saved calibration to its samples, as every tool does unless told `--raw`.
public enum SavedCalibration {
    /// `source` wrapped in the calibration saved for its key, and the line to tell the user
    /// ("using calibration for KEY from PATH"); the source unchanged and nil when none is saved.
    /// A saved file that cannot be read is an error (never silently ignored).
    public static func apply(to source: any SampleSource, store: CalibrationStore = .standard())
        throws -> (source: any SampleSource, message: String?) {
        guard let (calibration, path) = try store.load(key: source.info.calibrationKey) else { return (source, nil) }
        return (CalibratedSource(source, calibration: calibration),
                "using calibration for \(source.info.calibrationKey) from \(path)")
    }
}
