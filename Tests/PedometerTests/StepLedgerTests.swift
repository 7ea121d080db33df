import Testing
@testable import Pedometer

/// `StepLedger`'s pending/committed boundary (issue 15): totals count committed entries only,
/// a retraction takes back steps, pauses, resumes and walked time from its time on.
@Suite struct StepLedgerTests {
    /// A ledger at 50 Hz with 200 ticks of gait signal (a flat one: each step sits on its tick).
    private static func ledger() -> (StepLedger, RingBuffer, RingBuffer) {
        var gait = RingBuffer(minimumCapacity: 256), altitude = RingBuffer(minimumCapacity: 256)
        for _ in 0..<200 { gait.append(0); altitude.append(0) }
        return (StepLedger(rateHz: 50, stride: StrideModel(height: 1.75)), gait, altitude)
    }

    @Test func walkedTimeWithoutAStepIsPendingAndRetractedToo() {
        var (ledger, gait, altitude) = Self.ledger()
        // 0.2 s at 2 steps/s from phase 0: walked time, no whole step.
        ledger.credit(to: 10, cadence: 2, gait: gait, altitude: altitude, origin: 100)
        #expect(ledger.activeDuration == 0)
        ledger.retract(from: 100.1)
        var events: [PedometerEvent] = []
        ledger.commit(through: .infinity, into: &events)
        #expect(events.isEmpty)
        #expect(abs(ledger.activeDuration - 0.1) < 1e-9, "\(ledger.activeDuration) s: the stretch is cut at the retraction")
    }

    @Test func totalsFollowTheCommittedEventsAndARetractionKeepsTheEarlierOnes() {
        var (ledger, gait, altitude) = Self.ledger()
        ledger.note(.resume(time: 100))
        ledger.credit(to: 100, cadence: 2, gait: gait, altitude: altitude, origin: 100)   // 2 s: steps at about 100.5, 101, 101.5, 102
        ledger.note(.pause(time: 102))
        var events: [PedometerEvent] = []
        ledger.commit(through: 100.75, into: &events)
        #expect(stepTimes(events).count == 1 && ledger.steps == 1)
        #expect(ledger.activeDuration == 2, "a credited stretch is committed with its start")
        ledger.retract(from: 101.25)
        ledger.commit(through: .infinity, into: &events)
        #expect(stepTimes(events).count == 2 && ledger.steps == 2)
        #expect(abs(ledger.distanceMeters - 2 * StrideModel(height: 1.75).stride(cadence: 2)) < 1e-9)
        // The pause after the retraction went with it, the resume before it stays.
        #expect(events.first == .resume(time: 100))
        #expect(!events.contains(.pause(time: 102)))
    }

    @Test func aRetractedResumeTakesItsBoutsPauseWithIt() {
        var (ledger, _, _) = Self.ledger()
        ledger.note(.resume(time: 100))
        ledger.retract(from: 99)
        ledger.note(.pause(time: 103))   // the bout goes on and ends after the retraction
        ledger.note(.resume(time: 110))
        ledger.note(.pause(time: 112))
        var events: [PedometerEvent] = []
        ledger.commit(through: .infinity, into: &events)
        #expect(events == [.resume(time: 110), .pause(time: 112)])
    }
}
