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

    /// Largest |scale − 1| accepted: 10 %. Datasheets give a sensitivity tolerance of ±3 %
    /// (MPU-6050 PS §6.2 "initial calibration tolerance"; ADXL345 and LIS3DH are similar), so
    /// three times that is generous, and a scale of 100 (a wrong range setting) is refused.
    public static let largestScaleError = 0.10
    /// Largest |bias| accepted, g: zero-g offsets reach ±150 mg (MPU-6050 PS §6.2, Z axis); 0.5 g
    /// is three times that.
    public static let largestAccelerometerBias = 0.5
    /// Largest misalignment diagonal deviation from 1: the model's M has a unit diagonal (scale
    /// lives in `accelerometerScale`); a fit gives 1 to within rounding, so 5 % is generous.
    public static let largestDiagonalError = 0.05
    /// Largest cross-axis term: cross-axis sensitivity is ±2 % (MPU-6050 PS §6.2) plus mounting
    /// error of a few degrees; 0.2 (11.5°) is beyond any working board.
    public static let largestCrossAxis = 0.2
    /// Largest |gyro bias| accepted, rad/s: zero-rate offsets reach ±20 °/s (MPU-6050 PS §6.1;
    /// BMI160 ±3 °/s), 0.5 rad/s (28.6 °/s) covers them; 1e308 is refused.
    public static let largestGyroscopeBias = 0.5

    /// Checks that the numbers can be applied: finite, scale and diagonal near 1, biases within
    /// what the chips' datasheets allow, an invertible M (limits above).
    public func validate() throws(CalibrationError) {
        let axes = ["x", "y", "z"]
        for i in 0..<3 {
            guard accelerometerBias[i].isFinite, abs(accelerometerBias[i]) <= Self.largestAccelerometerBias else {
                throw .implausible("accelerometer bias \(accelerometerBias[i]) g on axis \(axes[i]) is beyond ±\(Self.largestAccelerometerBias) g")
            }
            guard accelerometerScale[i].isFinite, abs(accelerometerScale[i] - 1) <= Self.largestScaleError else {
                throw .implausible("accelerometer scale \(accelerometerScale[i]) on axis \(axes[i]) is not within 10 % of 1")
            }
            guard misalignment[i, i].isFinite, abs(misalignment[i, i] - 1) <= Self.largestDiagonalError else {
                throw .implausible("misalignment diagonal \(misalignment[i, i]) on axis \(axes[i]) is not within 5 % of 1 (the matrix has a unit diagonal)")
            }
            if let g = gyroscopeBias {
                guard g[i].isFinite, abs(g[i]) <= Self.largestGyroscopeBias else {
                    throw .implausible("gyroscope bias \(g[i]) rad/s on axis \(axes[i]) is beyond ±\(Self.largestGyroscopeBias) rad/s")
                }
            }
        }
        for r in 0..<3 { for c in 0..<3 where !misalignment[r, c].isFinite {
            throw .implausible("misalignment matrix holds a value that is not a finite number")
        } }
        guard misalignment.inverse != nil, misalignment.largestOffDiagonal <= Self.largestCrossAxis else {
            throw .implausible("misalignment matrix has cross-axis terms above \(Self.largestCrossAxis) or is singular")
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
        case .malformedFile(let path, let reason): return "\(path.escapedForTerminal): not a calibration file: \(reason.escapedForTerminal)"
        }
    }

    public var fix: String? {
        switch self {
        case .missingFaces: return "let the device rest still for the capture time on each missing face (imu-calibrate --six-position)"
        case .implausible: return "check the sensor's wiring and range, then calibrate again on a still, level surface"
        case .malformedFile(let path, _):
            // Only the store's own files can be reset by key; a system file needs --system and root.
            let system = path.hasPrefix(CalibrationStore.standard().systemDirectory + "/")
            return "remove it (\(system ? "sudo imu-calibrate --reset --system" : "imu-calibrate --reset"), or rm \(path.escapedForTerminal)) and calibrate again"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .missingFaces, .implausible: return .runtimeFailure
        case .malformedFile: return .usage
        }
    }
}

extension CalibrationError: RetryableError {
    /// Always permanent (`RetryableError`): reading the same file or fitting the same faces again
    /// gives the same answer. A damaged saved file (`malformedFile`, or one whose values are
    /// implausible, which the reader reports as malformed) stays damaged until a person removes
    /// it or calibrates again, as the fix says; imu-stepd stops retrying and shows that fix.
    public var isPermanent: Bool { true }
}
