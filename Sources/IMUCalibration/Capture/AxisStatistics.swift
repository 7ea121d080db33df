/// Running mean and standard deviation per axis (Welford's algorithm: one pass, no catastrophic
/// cancellation, constant memory), for a face's accelerometer or gyroscope readings.
public struct AxisStatistics: Sendable, Equatable {
    public private(set) var count = 0
    public private(set) var mean = Vector3.zero
    private var squaredDeviations = Vector3.zero

    public init() {}

    public mutating func add(_ v: Vector3) {
        count += 1
        let delta = v - mean
        mean += delta / Double(count)
        squaredDeviations += delta * (v - mean)
    }

    /// Sample standard deviation per axis (n − 1); zero with fewer than two values.
    public var standardDeviation: Vector3 {
        guard count > 1 else { return .zero }
        let variance = squaredDeviations / Double(count - 1)
        return Vector3(variance.x.squareRoot(), variance.y.squareRoot(), variance.z.squareRoot())
    }

    /// Merges another set of readings, as if they had been added here (Chan et al. 1979).
    public mutating func merge(_ other: AxisStatistics) {
        guard other.count > 0 else { return }
        guard count > 0 else { self = other; return }
        let n = Double(count + other.count)
        let delta = other.mean - mean
        squaredDeviations += other.squaredDeviations + delta * delta * (Double(count) * Double(other.count) / n)
        mean += delta * (Double(other.count) / n)
        count += other.count
    }
}
