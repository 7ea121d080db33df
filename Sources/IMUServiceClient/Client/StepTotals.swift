import Foundation
import Pedometer

/// One interval's totals as the step service reports them (like `CMPedometerData`).
public struct StepTotals: Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var steps: Int
    public var distanceMeters: Double
    public var floorsAscended: Int
    public var floorsDescended: Int
    /// Seconds spent walking or running.
    public var activeSeconds: Double

    public init(start: Date, end: Date, steps: Int = 0, distanceMeters: Double = 0,
                floorsAscended: Int = 0, floorsDescended: Int = 0, activeSeconds: Double = 0) {
        self.start = start
        self.end = end
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
        self.activeSeconds = activeSeconds
    }

    /// Appends the `(xxxdxxd)` struct (TotalsWire).
    public func write(to m: BusMessage) throws {
        try m.open("r", TotalsWire.signature)
        try m.append(WireTime.micros(start))
        try m.append(WireTime.micros(end))
        try m.append(Int64(steps))
        try m.append(distanceMeters)
        try m.append(Int64(floorsAscended))
        try m.append(Int64(floorsDescended))
        try m.append(activeSeconds)
        try m.close()
    }

    public static func read(from m: BusMessage) throws -> StepTotals? {
        guard try m.enter("r", TotalsWire.signature) else { return nil }
        let t = StepTotals(start: WireTime.date(try m.readInt64()), end: WireTime.date(try m.readInt64()),
                           steps: Int(clamping: try m.readInt64()), distanceMeters: try m.readDouble(),
                           floorsAscended: Int(clamping: try m.readInt64()), floorsDescended: Int(clamping: try m.readInt64()),
                           activeSeconds: try m.readDouble())
        try m.exit()
        return t
    }
}

/// One activity segment on the wall clock (like `CMMotionActivity` from `queryActivityStarting`).
public struct StepActivity: Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var activity: ActivityClass
    public var confidence: ActivityConfidence

    public init(start: Date, end: Date, activity: ActivityClass, confidence: ActivityConfidence) {
        self.start = start
        self.end = end
        self.activity = activity
        self.confidence = confidence
    }

    public func write(to m: BusMessage) throws {
        try m.open("r", ActivityWire.signature)
        try m.append(WireTime.micros(start))
        try m.append(WireTime.micros(end))
        try m.append(activity.rawValue)
        try m.append(confidence.rawValue)
        try m.close()
    }

    public static func read(from m: BusMessage) throws -> StepActivity? {
        guard try m.enter("r", ActivityWire.signature) else { return nil }
        let a = StepActivity(start: WireTime.date(try m.readInt64()), end: WireTime.date(try m.readInt64()),
                             activity: ActivityClass(rawValue: try m.readString()) ?? .unknown,
                             confidence: ActivityConfidence(rawValue: try m.readString()) ?? .low)
        try m.exit()
        return a
    }
}

/// Times on the wire: microseconds since 1970-01-01 UTC in an int64 (systemd's usec convention).
public enum WireTime {
    public static func micros(_ d: Date) -> Int64 {
        let us = (d.timeIntervalSince1970 * 1_000_000).rounded()
        // Range-checked before the integer conversion: ±292 000 years fit an int64 of µs.
        guard us.isFinite, abs(us) < 9.2e18 else { return us < 0 ? Int64.min : Int64.max }
        return Int64(us)
    }
    public static func date(_ us: Int64) -> Date { Date(timeIntervalSince1970: Double(us) / 1_000_000) }
}
