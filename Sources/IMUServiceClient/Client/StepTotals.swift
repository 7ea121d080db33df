import FoundationEssentials
import IMUHistory
import Pedometer

/// One interval's totals as the step service reports them (like `CMPedometerData`): IMUHistory's
/// `HistoryTotals`, so that the daemon's answers and the library's are one type.
public typealias StepTotals = HistoryTotals

/// One activity segment on the wall clock (like `CMMotionActivity`): IMUHistory's `HistoryActivity`.
public typealias StepActivity = HistoryActivity

extension HistoryTotals {
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

extension HistoryActivity {
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
