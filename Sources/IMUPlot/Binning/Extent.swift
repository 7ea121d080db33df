/// The smallest and largest value seen in one slice of time: a min/max envelope keeps every peak
/// visible however many samples fall into one pixel column.
struct Extent: Sendable, Equatable {
    var min = Double.infinity
    var max = -Double.infinity

    var isEmpty: Bool { min > max }

    mutating func add(_ value: Double) {
        if value < min { min = value }
        if value > max { max = value }
    }

    mutating func merge(_ other: Extent) {
        if other.min < min { min = other.min }
        if other.max > max { max = other.max }
    }
}

/// How many events fell into one slice of time, and the sum of their times (for their mean time,
/// where a tick is drawn).
struct EventTally: Sendable, Equatable {
    var count = 0
    var timeSum = 0.0

    mutating func add(_ time: Double) {
        count += 1
        timeSum += time
    }

    mutating func merge(_ other: EventTally) {
        count += other.count
        timeSum += other.timeSum
    }

    /// Mean time of the events, s; nil when there were none.
    var meanTime: Double? { count > 0 ? timeSum / Double(count) : nil }
}
