import Testing
@testable import IMUPlot

@Suite struct TimeGridTests {
    /// 24 hours at 100 Hz (8.64 million samples) into a grid of unknown end: memory stays at the
    /// grid's capacity, the global extremes and the event count survive every merge, and each event
    /// ends up in the pixel column holding its time (at most a quarter column off, TimeGrid).
    @Test func aDayAt100HzStaysInFixedBinsAndKeepsExtremesAndCounts() {
        let columns = 1120
        var grid = TimeGrid(origin: 5000, end: nil, capacity: 4 * columns)
        let n = 24 * 3600 * 100
        var events: [Double] = []
        for i in 0..<n {
            let t = 5000 + Double(i) / 100
            let index = grid.index(for: t)!
            // A slow wave plus one spike at an odd time: the spike must survive in the envelope.
            let v = i == 4_321_987 ? 7.5 : 1 + 0.3 * Double(i % 977) / 977
            grid.bins[index].acceleration.add(v)
            if i % 50_003 == 0 { events.append(t); grid.bins[index].steps.add(t) }
            #expect(grid.bins.count == 4 * columns)
            if grid.bins.count != 4 * columns { return }
        }
        let end = 5000 + Double(n - 1) / 100
        #expect(grid.coveredEnd > end && grid.coveredEnd <= 5000 + 2 * (end - 5000) + 1, "bins cover the day, not much more")
        let cols = grid.columns(columns, from: 5000, to: end)
        let all = cols.reduce(Extent()) { var e = $0; e.merge($1.acceleration); return e }
        #expect(all.max == 7.5 && all.min == 1)
        #expect(cols.reduce(0) { $0 + $1.steps.count } == events.count)
        let columnSeconds = (end - 5000) / Double(columns)
        for (c, col) in cols.enumerated() where col.steps.count > 0 {
            let t = col.steps.meanTime!
            let exact = (t - 5000) / columnSeconds
            #expect(exact >= Double(c) - 0.25 && exact < Double(c + 1) + 0.25, "event at column \(exact) drawn in column \(c)")
        }
        // The spike sits in the column holding its time.
        let spikeColumn = Int((Double(4_321_987) / 100) / columnSeconds)
        #expect((spikeColumn - 1...spikeColumn + 1).contains { cols[$0].acceleration.max == 7.5 })
    }

    @Test func aFixedSpanIgnoresTimeOutsideIt() {
        var grid = TimeGrid(origin: 10, end: 20, capacity: 8)
        #expect(grid.index(for: 9.999) == nil)
        #expect(grid.index(for: 20) == nil)
        #expect(grid.index(for: 10) == 0)
        #expect(grid.index(for: 19.999) == 7)
        #expect(grid.index(for: .nan) == nil)
    }

    @Test func spreadingAStretchAddsExactlyItsSecondsInsideTheSpan() {
        var grid = TimeGrid(origin: 0, end: 8, capacity: 8)
        grid.spread(from: -3, to: 2.5) { $0.boutSeconds += $1 }
        grid.spread(from: 6.25, to: 30) { $0.boutSeconds += $1 }
        let seconds = grid.bins.map(\.boutSeconds)
        #expect(abs(seconds.reduce(0, +) - (2.5 + 1.75)) < 1e-9)
        #expect(seconds[0] == 1 && seconds[1] == 1 && abs(seconds[2] - 0.5) < 1e-9 && seconds[3] == 0)
        #expect(abs(seconds[6] - 0.75) < 1e-9 && seconds[7] == 1)
    }

    @Test func aGrowingGridGrowsForAStretchPastItsEnd() {
        var grid = TimeGrid(origin: 0, end: nil, capacity: 4)
        grid.spread(from: 0, to: 1) { $0.boutSeconds += $1 }
        #expect(grid.coveredEnd >= 1)
        #expect(abs(grid.bins.map(\.boutSeconds).reduce(0, +) - 1) < 1e-9)
    }
}
