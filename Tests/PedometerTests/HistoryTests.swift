import Foundation
import Testing
@testable import Pedometer

@Suite struct HistoryTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let iso = ISO8601DateFormatter()

    @Test func springForwardDayLastsTwentyThreeHours() {
        let day = LocalDay.interval(containing: iso.date(from: "2026-03-29T15:00:00Z")!, in: berlin)
        #expect(day.duration == 23 * 3600)
        #expect(day.start == iso.date(from: "2026-03-28T23:00:00Z")!)
    }

    @Test func fallBackDayLastsTwentyFiveHours() {
        let day = LocalDay.interval(containing: iso.date(from: "2026-10-25T15:00:00Z")!, in: berlin)
        #expect(day.duration == 25 * 3600)
        #expect(day.end == iso.date(from: "2026-10-25T23:00:00Z")!)
    }

    /// Steps on both sides of both midnights of a 25-hour day land in the right days.
    @Test func todayCountsTheWholeLocalDay() {
        let midnight = iso.date(from: "2026-10-24T22:00:00Z")!   // 00:00 CEST, 25 Oct
        let mapping = BootTimeMapping(wallTimeAtBoot: midnight.addingTimeInterval(-10_000))
        var history = PedometerHistory(mapping: mapping, capabilities: Capabilities(sensors: .init(accelerometer: true, barometer: true)))
        func boot(_ secondsAfterMidnight: Double) -> Double { 10_000 + secondsAfterMidnight }
        var snapshot = PedometerSnapshot()
        var events: [PedometerEvent] = []
        // 2 steps just before midnight, 3 just after, 4 at 23:30 local (hour 24.5 of the 25 h day),
        // 5 just after the next midnight (25 h later).
        for t in [-30.0, -10] { events.append(.step(time: boot(t))) }
        for t in [10.0, 20, 30] { events.append(.step(time: boot(t))) }
        for t in [88_200.0, 88_210, 88_220, 88_230] { events.append(.step(time: boot(t))) }
        for t in [90_010.0, 90_020, 90_030, 90_040, 90_050] { events.append(.step(time: boot(t))) }
        events.append(.floor(time: boot(100), direction: .up))
        snapshot.steps = 14
        snapshot.distanceMeters = 14 * 0.7
        history.record(events, snapshot: snapshot)
        let today = history.today(containing: midnight.addingTimeInterval(12 * 3600), in: berlin)
        #expect(today.numberOfSteps == 7)
        #expect(today.floorsAscended == 1)
        #expect(abs((today.distance ?? 0) - 7 * 0.7) < 1e-9)
        // A naive 24-hour day would miss the 23:30 steps.
        let naive = history.query(from: midnight, to: midnight.addingTimeInterval(86_400))
        #expect(naive.numberOfSteps == 3)
        let tomorrow = history.today(containing: midnight.addingTimeInterval(26 * 3600), in: berlin)
        #expect(tomorrow.numberOfSteps == 5)
    }

    @Test func historyMemoryIsBounded() {
        let mapping = BootTimeMapping(wallTimeAtBoot: Date(timeIntervalSince1970: 1_800_000_000))
        var history = PedometerHistory(mapping: mapping, capabilities: Capabilities(sensors: .init(accelerometer: true)),
                                       retention: 3600)
        var snapshot = PedometerSnapshot()
        for minute in 0..<600 {
            snapshot.steps += 1
            history.record([.step(time: Double(minute) * 60 + 1)], snapshot: snapshot)
        }
        #expect(history.binCount <= 61)
        let all = history.query(from: mapping.date(bootSeconds: 0), to: mapping.date(bootSeconds: 36_000))
        #expect(all.numberOfSteps == history.binCount)
        #expect(all.floorsAscended == nil, "no barometer: floors are unavailable, not zero")
    }

    @Test func bootTimeMappingRoundTrips() {
        let mapping = BootTimeMapping(wallTimeAtBoot: Date(timeIntervalSince1970: 1_000))
        #expect(mapping.date(bootSeconds: 5) == Date(timeIntervalSince1970: 1_005))
        #expect(mapping.bootSeconds(of: Date(timeIntervalSince1970: 1_010)) == 10)
        let now = BootTimeMapping.current()
        #expect(abs(now.date(bootSeconds: BootClock.nowSeconds()).timeIntervalSinceNow) < 1)
    }

    /// Live cumulative updates from a simulated walk, consumed through the AsyncSequence with a
    /// bounded buffer: the consumer sees increasing totals ending at the pedometer's count.
    @Test func cumulativeUpdatesArriveAsAnAsyncSequence() async {
        let sim = simulate("walk")
        let mapping = BootTimeMapping(wallTimeAtBoot: Date(timeIntervalSince1970: 1_800_000_000))
        let start = mapping.date(bootSeconds: sim.samples[0].time)
        let (updates, feeder) = PedometerUpdates.make(from: start, bufferingPolicy: .bufferingNewest(4))
        let producer = Task {
            var pedometer = Pedometer(capabilities: sim.options.capabilities)
            var history = PedometerHistory(mapping: mapping, capabilities: Pedometer.capabilities(for: sim.options.capabilities))
            var events: [PedometerEvent] = []
            for (i, sample) in sim.samples.enumerated() {
                pedometer.process(sample, into: &events)
                if i % 100 == 99 {
                    history.record(events, snapshot: pedometer.snapshot)
                    events.removeAll()
                    feeder.publish(history: history, snapshot: pedometer.snapshot)
                }
            }
            pedometer.finish(into: &events)
            history.record(events, snapshot: pedometer.snapshot)
            feeder.publish(history: history, snapshot: pedometer.snapshot)
            feeder.finish()
            return pedometer.snapshot.steps
        }
        var seen: [Int] = []
        for await data in updates {
            seen.append(data.numberOfSteps)
            #expect(data.startDate == start)
        }
        let total = await producer.value
        #expect(!seen.isEmpty)
        #expect(seen.last == total)
        #expect(zip(seen.dropFirst(), seen).allSatisfy { $0 >= $1 })
    }
}
