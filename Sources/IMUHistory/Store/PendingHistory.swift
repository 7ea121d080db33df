import FoundationEssentials

/// What was recorded since the last successful commit, in memory.
///
/// Minutes are keyed by wall-clock minute once a `BootTimeMapping` is known ("placed"), and by
/// boot-clock minute before that ("unplaced"). Segments and markers keep their times in seconds:
/// since 1970 when placed, on the boot clock when not.
struct PendingHistory {
    struct TimedEvent: Equatable {
        var start: Double
        var end: Double
        /// A `HistoryMarker.Kind` raw value, or "activity".
        var kind: String
        var activity: ActivityClass?
        var confidence: ActivityConfidence?
    }

    var placed: [Int64: MinuteTotals] = [:]
    var unplaced: [Int64: MinuteTotals] = [:]
    var placedEvents: [TimedEvent] = []
    var unplacedEvents: [TimedEvent] = []

    var isEmpty: Bool { placed.isEmpty && unplaced.isEmpty && placedEvents.isEmpty && unplacedEvents.isEmpty }
    /// Minutes held (placed or not).
    var minuteCount: Int { placed.count + unplaced.count }

    /// The wall-clock minute of boot minute `bootMinute`: the one holding its middle (half of
    /// 60 s), so a minute counted before the clock was known lands within 30 s of where it happened.
    static func wallMinute(ofBootMinute bootMinute: Int64, _ mapping: BootTimeMapping) -> Int64 {
        WallMinute.index(of: mapping.date(bootSeconds: Double(bootMinute) * HistoryTime.secondsPerMinute + HistoryTime.secondsPerMinute / 2))
    }

    /// Whether a stored boot minute can be placed: within 2⁴⁰ minutes (two million years) of boot,
    /// the range `HistoryError.rowName` shows as dates; beyond it the wall minute's conversion to
    /// an integer trapped (no write of IMUKit stores one: a hand-edited or damaged file).
    static func isPlaceable(bootMinute: Int64) -> Bool { bootMinute.magnitude < HistoryTime.datedMinutes.magnitude }

    static func bootMinute(of bootSeconds: Double) -> Int64 { Int64((bootSeconds / HistoryTime.secondsPerMinute).rounded(.down)) }

    mutating func add(_ totals: MinuteTotals, at bootSeconds: Double, _ mapping: BootTimeMapping?) {
        if let mapping {
            placed[WallMinute.index(of: mapping.date(bootSeconds: bootSeconds)), default: MinuteTotals()] += totals
        } else {
            unplaced[Self.bootMinute(of: bootSeconds), default: MinuteTotals()] += totals
        }
    }

    mutating func add(_ event: TimedEvent, _ mapping: BootTimeMapping?) {
        if let mapping {
            let offset = mapping.wallTimeAtBoot.timeIntervalSince1970
            placedEvents.append(TimedEvent(start: event.start + offset, end: event.end + offset, kind: event.kind,
                                           activity: event.activity, confidence: event.confidence))
        } else {
            unplacedEvents.append(event)
        }
    }

    /// Moves everything unplaced onto the wall clock.
    mutating func place(_ mapping: BootTimeMapping) {
        for (bootMinute, totals) in unplaced {
            placed[Self.wallMinute(ofBootMinute: bootMinute, mapping), default: MinuteTotals()] += totals
        }
        unplaced = [:]
        for event in unplacedEvents { add(event, mapping) }
        unplacedEvents = []
    }
}
