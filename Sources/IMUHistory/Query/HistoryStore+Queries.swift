import FoundationEssentials

/// The queries: sums of minutes (hour sums for whole hours), local days, segments and markers.
/// Each includes what is recorded but not committed yet.
extension HistoryStore {
    /// Totals of the minutes that start within `[from, to)`, committed or still buffered.
    public func totals(from: Date, to: Date) throws -> HistoryTotals {
        HistoryTotals(start: from, end: to, try sum(WallMinute.starting(from: from, to: to)))
    }

    /// Totals of the local day of `timeZone` containing `date`, up to `date` (today so far).
    public func today(until date: Date = Date(), in timeZone: TimeZone = .current) throws -> HistoryTotals {
        try totals(from: LocalDay.interval(containing: date, in: timeZone).start, to: date)
    }

    /// One `HistoryTotals` per local day of `timeZone` overlapping `[from, to)`, each covering that
    /// day clipped to `[from, to)`. Days run from local midnight to local midnight (23 or 25 hours
    /// on daylight-saving days; `LocalDay`).
    public func days(from: Date, to: Date, timeZone: TimeZone) throws -> [HistoryTotals] {
        var out: [HistoryTotals] = []
        var day = LocalDay.interval(containing: from, in: timeZone)
        while day.start < to {
            let start = max(day.start, from), end = min(day.end, to)
            out.append(try totals(from: start, to: end))
            day = LocalDay.interval(containing: day.end, in: timeZone)
        }
        return out
    }

    /// The activity segments overlapping `[from, to)`, oldest first, not clipped.
    public func activities(from: Date, to: Date) throws -> [HistoryActivity] {
        let fromMs = Milliseconds.of(from.timeIntervalSince1970), toMs = Milliseconds.of(to.timeIntervalSince1970)
        var out: [HistoryActivity] = []
        try guarded {
            let rows = try statements.selectActivities().bind(.integer(fromMs), .integer(toMs))
            while try rows.step() {
                out.append(HistoryActivity(start: Date(timeIntervalSince1970: Double(rows.int64(0)) / Milliseconds.perUnit),
                                           end: Date(timeIntervalSince1970: Double(rows.int64(1)) / Milliseconds.perUnit),
                                           activity: ActivityClass(rawValue: rows.text(2) ?? "") ?? .unknown,
                                           confidence: ActivityConfidence(rawValue: rows.text(3) ?? "") ?? .low))
            }
        }
        for event in pending.placedEvents where event.kind == "activity" {
            let segment = HistoryActivity(start: Date(timeIntervalSince1970: event.start), end: Date(timeIntervalSince1970: event.end),
                                          activity: event.activity ?? .unknown, confidence: event.confidence ?? .low)
            if segment.end > from && segment.start < to { out.append(segment) }
        }
        return out.sorted { $0.start < $1.start }
    }

    /// The pause/resume markers within `[from, to)`, oldest first.
    public func markers(from: Date, to: Date) throws -> [HistoryMarker] {
        var out: [HistoryMarker] = []
        try guarded {
            let rows = try statements.selectMarkers().bind(.integer(Milliseconds.of(from.timeIntervalSince1970)),
                                                     .integer(Milliseconds.of(to.timeIntervalSince1970)))
            while try rows.step() {
                guard let kind = HistoryMarker.Kind(rawValue: rows.text(1) ?? "") else { continue }
                out.append(HistoryMarker(date: Date(timeIntervalSince1970: Double(rows.int64(0)) / Milliseconds.perUnit), kind: kind))
            }
        }
        for event in pending.placedEvents {
            guard let kind = HistoryMarker.Kind(rawValue: event.kind) else { continue }
            let date = Date(timeIntervalSince1970: event.start)
            if date >= from && date < to { out.append(HistoryMarker(date: date, kind: kind)) }
        }
        return out.sorted { $0.date < $1.date }
    }

    /// Minutes of any boot still waiting for a wall-clock mapping (stored and buffered). Those of
    /// an earlier boot that ended before its clock was synchronised cannot be placed any more;
    /// they stay in the file, counted here.
    public func unplacedMinuteCount() throws -> Int {
        try guarded { Int(try statements.countAllUnplaced().bind().scalar() ?? 0) } + pending.unplaced.count
    }

    /// Sums the stored and buffered minutes of `range`: whole hours from the hour sums, the edges
    /// from the minutes.
    func sum(_ range: ClosedRange<Int64>?) throws -> MinuteTotals {
        guard let range else { return MinuteTotals() }
        var total = MinuteTotals()
        let perHour = HistoryTime.minutesPerHour
        let firstHour = -Self.floorDivide(-range.lowerBound, perHour)          // first whole hour inside
        let endHour = Self.floorDivide(range.upperBound + 1, perHour)          // whole hours end before this
        try guarded {
            if firstHour < endHour {
                total += try fetch(.hours, firstHour, endHour - 1)
                if range.lowerBound < firstHour * perHour { total += try fetch(.minutes, range.lowerBound, firstHour * perHour - 1) }
                if endHour * perHour <= range.upperBound { total += try fetch(.minutes, endHour * perHour, range.upperBound) }
            } else {
                total += try fetch(.minutes, range.lowerBound, range.upperBound)
            }
        }
        for (minute, totals) in pending.placed where range.contains(minute) { total += totals }
        return total
    }

    /// The sums of the rows of `table` keyed `first...last`. A row no write could make (a value
    /// that is no integer, negative or above `largestValue`: a hand-edited or damaged file) is
    /// reported as damage, `HistoryError.implausibleValue`, never summed as a clamped value.
    func fetch(_ table: HistoryTable, _ first: Int64, _ last: Int64) throws -> MinuteTotals {
        let statement = try table == .minutes ? statements.sumMinutes() : statements.sumHours()
        do {
            guard try statement.bind(.integer(first), .integer(last)).step() else { return MinuteTotals() }
            let totals = Self.totals(statement, from: 0)
            let implausibleRows = statement.int64(5)
            try statement.run()
            if implausibleRows > 0, let damage = try implausibleRow(table, first, last) { throw damage }
            return totals
        } catch let failure as SQLiteFailure {
            // sum() of a tampered value near 2⁶³ fails with "integer overflow" before the count.
            if let damage = try implausibleRow(table, first, last) { throw damage }
            throw failure
        }
    }

    /// The first implausible row of `table` keyed `first...last`, as the error that names it.
    private func implausibleRow(_ table: HistoryTable, _ first: Int64, _ last: Int64) throws(SQLiteFailure) -> HistoryError? {
        let row = try statements.firstImplausible(in: table).bind(.integer(first), .integer(last))
        guard try row.step() else { return nil }
        let key = row.int64(0)
        // `quote()` gives each value as SQL text: 12, -5, 1.5 or 'abc'.
        let values = Statements.columnNames.indices.map { row.text(Int32($0 + 1)) ?? "NULL" }
        try row.run()
        let bad = values.firstIndex { Int64($0).map { !(0...Self.largestValue).contains($0) } ?? true } ?? 0
        return .implausibleValue(path: path, table: table.rawValue, key: key, column: Statements.columnNames[bad], value: values[bad])
    }
}
