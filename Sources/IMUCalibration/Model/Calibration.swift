/// A sensor's calibration: applied to every sample a tool reads (docs/CONTRACTS.md §5).
///
/// Accelerometer: `corrected = M⁻¹ · ((raw − bias) / scale)`, with bias and scale per axis from
/// the six-position formulas (bias = (up + down) / 2, scale = (up − down) / 2) and M the
/// cross-axis misalignment (unit diagonal). Gyroscope: `corrected = raw − gyroBias`.
public struct Calibration: Sendable, Equatable {
    /// The calibration-store key of the sensor it belongs to (`SourceInfo.calibrationKey`).
    public var key: String
    /// Human name of the sensor when it was calibrated.
    public var sourceName: String
    /// When it was made, ISO 8601 UTC (e.g. "2026-11-30T19:02:11Z").
    public var created: String
    /// Accelerometer bias per axis, g.
    public var accelerometerBias: Vector3
    /// Accelerometer scale factor per axis (1 = perfect).
    public var accelerometerScale: Vector3
    /// Cross-axis misalignment M (unit diagonal); identity = none.
    public var misalignment: Matrix3 {
        didSet { misalignmentInverse = misalignment.inverse ?? .identity }
    }
    /// Gyroscope bias per axis, rad/s; nil when the sensor has no gyroscope.
    public var gyroscopeBias: Vector3?
    public var quality: CalibrationQuality

    private var misalignmentInverse: Matrix3

    public init(key: String, sourceName: String, created: String, accelerometerBias: Vector3,
                accelerometerScale: Vector3, misalignment: Matrix3 = .identity, gyroscopeBias: Vector3?,
                quality: CalibrationQuality = CalibrationQuality()) {
        self.key = key
        self.sourceName = sourceName
        self.created = created
        self.accelerometerBias = accelerometerBias
        self.accelerometerScale = accelerometerScale
        self.misalignment = misalignment
        self.misalignmentInverse = misalignment.inverse ?? .identity
        self.gyroscopeBias = gyroscopeBias
        self.quality = quality
    }

    /// The corrected acceleration, g.
    public func correct(acceleration raw: Vector3) -> Vector3 {
        misalignmentInverseMatrix.apply((raw - accelerometerBias) / accelerometerScale)
    }

    /// The corrected rotation rate, rad/s.
    public func correct(rotationRate raw: Vector3) -> Vector3 {
        raw - (gyroscopeBias ?? .zero)
    }

    /// The sample with both sensors corrected; pressure and temperature pass through.
    public func apply(_ sample: MotionSample) -> MotionSample {
        var s = sample
        if let a = s.acceleration { s.acceleration = correct(acceleration: a) }
        if let r = s.rotationRate { s.rotationRate = correct(rotationRate: r) }
        return s
    }

    var misalignmentInverseMatrix: Matrix3 { misalignmentInverse }

    /// Checks that the numbers can be applied: finite, scale near 1, bias below 0.5 g, an invertible M.
    /// Thresholds: datasheets give scale errors of a few % and zero-g offsets up to ±0.15 g
    /// (MPU-6050 PS §6.2: ±80 mg X/Y, ±150 mg Z), so anything beyond 20 % or 0.5 g is not a
    /// calibration of a working sensor.
    public func validate() throws(CalibrationError) {
        for i in 0..<3 {
            guard accelerometerBias[i].isFinite, abs(accelerometerBias[i]) < 0.5 else {
                throw .implausible("accelerometer bias \(accelerometerBias[i]) g on axis \("xyz".map(String.init)[i]) is beyond 0.5 g")
            }
            guard accelerometerScale[i].isFinite, abs(accelerometerScale[i] - 1) < 0.2 else {
                throw .implausible("accelerometer scale \(accelerometerScale[i]) on axis \("xyz".map(String.init)[i]) is not within 20 % of 1")
            }
        }
        guard misalignment.inverse != nil, misalignment.largestOffDiagonal < 0.2 else {
            throw .implausible("misalignment matrix has cross-axis terms above 0.2 or is singular")
        }
        if let g = gyroscopeBias, !(0..<3).allSatisfy({ g[$0].isFinite }) {
            throw .implausible("gyroscope bias is not finite")
        }
    }
}

/// How good a calibration is, measured on the captured faces.
public struct CalibrationQuality: Sendable, Equatable {
    /// RMS over the six faces of (|raw mean| − 1), g: how wrong |g| is without calibration.
    public var gravityErrorBefore: Double = 0
    /// The same after correction, g.
    public var gravityErrorAfter: Double = 0
    /// |mean reading| on the +z (flat, face-up) face before and after correction, g
    /// (the raw-sensor seed article reports 0.99498 → 0.99996 for its model sensor).
    public var faceUpNormBefore: Double = 0
    public var faceUpNormAfter: Double = 0
    /// Accelerometer noise per axis (standard deviation of single readings at rest), g.
    public var accelerometerNoise: Vector3 = .zero
    /// Gyroscope noise per axis, rad/s; nil without a gyroscope.
    public var gyroscopeNoise: Vector3?
    /// Seconds averaged per face (shortest face) and samples used in total.
    public var secondsPerFace: Double = 0
    public var samples: Int = 0
    /// Mean raw reading per face, g, for the record.
    public var faceMeans: [Face: Vector3] = [:]

    public init() {}
}

/// A calibration that cannot be computed, read or used.
public enum CalibrationError: DiagnosableError, Equatable {
    case missingFaces([Face])
    case implausible(String)
    case malformedFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .missingFaces(let faces):
            return "six-position calibration needs all six faces; missing: \(faces.map(\.rawValue).joined(separator: " "))"
        case .implausible(let what): return "calibration rejected: \(what)"
        case .malformedFile(let path, let reason): return "\(path): not a calibration file: \(reason)"
        }
    }

    public var fix: String? {
        switch self {
        case .missingFaces: return "let the device rest still for the capture time on each missing face (imu-calibrate --six-position)"
        case .implausible: return "check the sensor's wiring and range, then calibrate again on a still, level surface"
        case .malformedFile(let path, _): return "remove it (imu-calibrate --reset, or rm \(path)) and calibrate again"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .missingFaces, .implausible: return .runtimeFailure
        case .malformedFile: return .usage
        }
    }
}
