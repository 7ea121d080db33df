/// The error model of a three-axis sensor (accelerometer or gyroscope):
///
///     raw = S · (M · truth) + b + n
///
/// with S = diag(`scale`), M = `misalignment` (cross-axis coupling, identity when perfect),
/// b = `bias` and n white Gaussian noise with standard deviation `noise` per axis and sample.
/// It is built so that the calibration of docs/CONTRACTS.md §5,
/// `corrected = M⁻¹ · ((raw − b) / S)`, recovers the truth (plus M⁻¹·n/S): see `correct(_:)`.
/// Bias, scale and noise follow the raw-sensor seed article's model (reading = scale·truth + bias + noise).
public struct SensorErrorModel: Sendable, Equatable {
    /// Per-axis scale factor (1 = perfect).
    public var scale: Vector3
    /// Per-axis bias, in the sensor's unit (g or rad/s).
    public var bias: Vector3
    /// 3×3 cross-axis misalignment, rows first (identity = none).
    public var misalignment: [[Double]]
    /// White-noise standard deviation per axis and sample, in the sensor's unit.
    public var noise: Double
    /// Full-scale range: readings are clipped to ±range (infinity = never).
    public var range: Double
    /// Size of one output step (LSB) in the sensor's unit; 0 = continuous.
    public var resolution: Double
    /// Bias random walk: the bias wanders by this much per √s, per axis (0 = a constant bias).
    public var biasRandomWalk: Double = 0
    /// Bias change per °C away from `SensorErrorModel.referenceCelsius` (the die warms up after power-on).
    public var biasPerCelsius: Vector3 = .zero

    /// Temperature at which `bias` holds, °C (datasheets specify offsets at 25 °C).
    public static let referenceCelsius = 25.0

    public init(scale: Vector3 = Vector3(repeating: 1), bias: Vector3 = .zero,
                misalignment: [[Double]] = SensorErrorModel.identityMatrix, noise: Double = 0,
                range: Double = .infinity, resolution: Double = 0) {
        self.scale = scale
        self.bias = bias
        self.misalignment = misalignment
        self.noise = noise
        self.range = range
        self.resolution = resolution
    }

    public static let identityMatrix: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]

    /// No error at all.
    public static let perfect = SensorErrorModel()

    /// The raw-sensor seed article's illustrative consumer accelerometer: bias (0.004, −0.006, 0.010) g,
    /// scale (1.002, 0.997, 1.005), noise 0.003 g per sample; ±16 g in 16 bits (32768 LSB per 16 g),
    /// the widest range of common phone IMUs.
    public static let typicalAccelerometer = SensorErrorModel(scale: Vector3(1.002, 0.997, 1.005),
                                                              bias: Vector3(0.004, -0.006, 0.010), noise: 0.003,
                                                              range: 16, resolution: 16.0 / 32768)
    /// The same article's gyroscope: bias (0.002, −0.001, 0.003) rad/s, noise 0.002 rad/s per sample;
    /// ±2000 °/s in 16 bits.
    public static let typicalGyroscope = SensorErrorModel(bias: Vector3(0.002, -0.001, 0.003), noise: 0.002,
                                                          range: 2000 * Double.pi / 180,
                                                          resolution: 2000 * Double.pi / 180 / 32768)

    /// A misalignment matrix with small cross-axis terms: each axis picks up `fraction` of the
    /// other two (e.g. 0.01 = 1%, within the ±2% cross-axis sensitivity typical datasheets state).
    public static func crossAxis(_ fraction: Double) -> [[Double]] {
        [[1, fraction, -fraction], [-fraction, 1, fraction], [fraction, -fraction, 1]]
    }

    /// True when `misalignment` is an invertible 3×3 matrix of finite numbers, no scale is zero,
    /// and noise, range and resolution are non-negative.
    public var isValid: Bool {
        misalignment.count == 3 && misalignment.allSatisfy { $0.count == 3 && $0.allSatisfy(\.isFinite) }
            && (0..<3).allSatisfy { scale[$0].isFinite && scale[$0] != 0 && bias[$0].isFinite }
            && noise.isFinite && noise >= 0 && Self.inverse(misalignment) != nil
            && range > 0 && resolution.isFinite && resolution >= 0
            && biasRandomWalk.isFinite && biasRandomWalk >= 0 && (0..<3).allSatisfy { biasPerCelsius[$0].isFinite }
    }

    /// The error-free reading, before noise: S·(M·truth) + b.
    @inline(__always) func distort(_ truth: Vector3) -> Vector3 {
        let m = misalignment
        let mixed = Vector3(m[0][0] * truth.x + m[0][1] * truth.y + m[0][2] * truth.z,
                            m[1][0] * truth.x + m[1][1] * truth.y + m[1][2] * truth.z,
                            m[2][0] * truth.x + m[2][1] * truth.y + m[2][2] * truth.z)
        return scale * mixed + bias
    }

    /// The full reading: distortion, extra bias (drift and temperature), noise (from `random`),
    /// then quantisation and clipping.
    @inline(__always) func read(_ truth: Vector3, extraBias: Vector3, random: inout Xoshiro256StarStar) -> Vector3 {
        var v = distort(truth) + extraBias
        if noise > 0 { v += random.gaussian3() * noise }
        if resolution > 0 { v = (v / resolution).rounded(.toNearestOrEven) * resolution }
        if range.isFinite { v = v.clamped(lowerBound: Vector3(repeating: -range), upperBound: Vector3(repeating: range)) }
        return v
    }

    /// The calibration of docs/CONTRACTS.md §5 with this model's own parameters: M⁻¹·((raw − b)/S).
    public func correct(_ raw: Vector3) -> Vector3 {
        let unscaled = (raw - bias) / scale
        guard let inv = Self.inverse(misalignment) else { return unscaled }
        return Vector3((inv[0] * unscaled).sum(), (inv[1] * unscaled).sum(), (inv[2] * unscaled).sum())
    }

    /// Rows of the inverse of a 3×3 matrix by cofactors; nil when singular or malformed.
    static func inverse(_ m: [[Double]]) -> [Vector3]? {
        guard m.count == 3, m.allSatisfy({ $0.count == 3 }) else { return nil }
        let r0 = Vector3(m[0][0], m[0][1], m[0][2]), r1 = Vector3(m[1][0], m[1][1], m[1][2]), r2 = Vector3(m[2][0], m[2][1], m[2][2])
        let c0 = cross(r1, r2), c1 = cross(r2, r0), c2 = cross(r0, r1)
        let det = (r0 * c0).sum()
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        // The inverse's columns are the cofactor vectors divided by the determinant.
        return [Vector3(c0.x, c1.x, c2.x) / det, Vector3(c0.y, c1.y, c2.y) / det, Vector3(c0.z, c1.z, c2.z) / det]
    }
}
