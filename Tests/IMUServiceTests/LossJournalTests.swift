import Foundation
import OffPool
import IMUHistory
import Pedometer
@testable import IMUServiceClient
import Testing
@testable import IMUService

/// imu-stepd publishes what its sources lost, as imu-steps prints it: the polled reader's missed
/// polls were counted (`SampleLosses.missedPolls`) and never left the daemon (no property, no
/// journal line), nor did any other loss.
@Suite struct LossJournalTests {
    func missed(_ n: Int) -> SampleLosses { var l = SampleLosses(); l.missedPolls = n; return l }

    @Test func theFirstLossIsSaidAtOnceThenAtMostEveryTenMinutes() {
        var journal = LossJournal()
        let first = journal.add(missed(3), now: 100)
        #expect(first == ["samples dropped 3 (missed polls 3) since imu-stepd started (D-Bus properties Dropped*; causes and fixes: docs/troubleshooting.md)"])
        #expect(journal.add(missed(4), now: 101).isEmpty, "within lineSeconds of the last line")
        #expect(journal.add(missed(1), now: 100 + LossJournal.lineSeconds).first?.hasPrefix("samples dropped 8 (missed polls 8)") == true)
        #expect(journal.total.missedPolls == 8)
        #expect(journal.finalLine() == nil, "nothing new since the last line")
        _ = journal.add(missed(2), now: 101 + LossJournal.lineSeconds)
        #expect(journal.finalLine()?.hasPrefix("samples dropped 10 (missed polls 10)") == true, "said at shutdown")
    }

    @Test func aSensorLostMidRunHasItsOwnLineAndNoLossIsNoLine() {
        var journal = LossJournal()
        var lost = SampleLosses()
        lost.lostSensors = ["barometer bmp280 on /dev/i2c-1 @0x76 stopped answering"]
        #expect(journal.add(lost, now: 0) == ["lost barometer bmp280 on /dev/i2c-1 @0x76 stopped answering: what it measured stopped there, the rest goes on"])
        #expect(journal.finalLine() == nil)
    }

    @Test func aSourceReportsWhatGrewSinceItsLastReport() {
        var before = missed(5), now = missed(9)
        before.lostSensors = ["a"]
        now.lostSensors = ["a", "b"]
        now.nonIncreasingTime = 2
        let grown = now.since(before)
        #expect(grown.missedPolls == 4 && grown.nonIncreasingTime == 2 && grown.lostSensors == ["b"])
        var sum = before
        sum += grown
        #expect(sum == now)
    }

    /// The engine adds every report (a reopened source counts from zero again) and publishes the
    /// sum in the Dropped* properties.
    @Test func theEnginePublishesTheSumAsProperties() async throws {
        let h = try await EngineHarness()
        h.engine.send(.losses(missed(7)))
        h.engine.send(.losses(missed(5)))
        let deadline = Date().addingTimeInterval(10)
        while h.engine.board.current.status.losses.missedPolls != 12, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        let status = h.engine.board.current.status
        #expect(status.losses.missedPolls == 12)
        #expect(status.value(of: "DroppedMissedPolls") == "12" && status.value(of: "DroppedBufferOverflow") == "0")
        #expect(status.changedProperties(since: ServiceStatus(today: status.today)).contains("DroppedMissedPolls"))
        #expect(h.engine.stop(waitingUpTo: 5))
    }
}

/// The whole way, on a private bus: a replayed recording whose times repeat (CONTRACTS §2: each
/// repeat is dropped and counted) shows the count in DroppedTimeNotIncreasing and the journal,
/// and DroppedMissedPolls is served beside it.
@Suite(.offPool, .serialized) struct DaemonLossTests {
    @Test func aReplaysDroppedSamplesAreOnTheBusAndInTheJournal() throws {
        guard let bus = try PrivateBus.start() else { return print("skipped: dbus-daemon is not installed (apt-get install dbus)") }
        let state = try scratch()
        let recording = state + "/repeats.csv"
        // 20 s at 50 Hz lying still; every 100th line repeats the time before it: 10 repeats.
        var text = "t,ax,ay,az\n"
        for i in 0..<1000 {
            let t = i % 100 == 99 ? Double(i - 1) * 0.02 : Double(i) * 0.02
            text += String(format: "%.2f,0,0,1\n", t)
        }
        try text.write(toFile: recording, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(bus: bus, stateDirectory: state + "/s", settings: ["replay = \(recording)", "speed = 1000"])
        #expect(try PrivateBus.waitFor(20) { busValue(try bus.property("DroppedTimeNotIncreasing")) == "10" }, "\(daemon.log)")
        #expect(busValue(try bus.property("DroppedMissedPolls")) == "0")
        #expect(PrivateBus.waitFor(5) { daemon.log.contains("samples dropped 10 (time not increasing 10) since imu-stepd started") }, "\(daemon.log)")
    }

    /// A source lost mid-run reached the journal and `SensorState` while it was gone, then
    /// `running` again after the retry, and nothing on the bus said it had happened. The
    /// simulator fails after 2 simulated seconds (`fail=2`), each time it is reopened.
    @Test func aSensorLostMidRunIsCountedOnTheBus() throws {
        guard let bus = try PrivateBus.start() else { return print("skipped: dbus-daemon is not installed (apt-get install dbus)") }
        let state = try scratch()
        let daemon = try DaemonProcess(bus: bus, stateDirectory: state + "/s", settings: ["source = sim:walk?fail=2&speed=20"])
        #expect(try PrivateBus.waitFor(20) { (Int(busValue(try bus.property("SensorLosses"))) ?? 0) >= 1 }, "\(daemon.log)")
        #expect(busValue(try bus.property("LastSensorLoss")).contains("sensor lost after 2"), "\(daemon.log)")
        #expect(daemon.log.contains("sensor lost: "), "the journal says it too: \(daemon.log)")
    }
}

/// `SensorLosses` and `LastSensorLoss`: a loss mid-run, whether the whole source or a part of it
/// (a barometer beside the IMU, which leaves `SensorState` at `running`), counted once each.
@Suite(.offPool) struct SensorLossPropertyTests {
    @Test func eachLossMidRunIsCountedOnceWithItsWords() async throws {
        let h = try await EngineHarness()
        let info = SourceInfo(name: "i2c:/dev/i2c-1@0x68", calibrationKey: "k", capabilities: SensorCapabilities(accelerometer: true))
        h.engine.send(.sensor(.lost("no sensor found", retrying: true)))
        h.settle()
        #expect(h.engine.board.current.status.sensorLosses == 0, "never found at the start: not lost mid-run")
        h.engine.send(.sensor(.running(info, captureMode: "polled")))
        h.engine.send(.sensor(.lost("i2c-1 @0x68 went away (ENXIO)", retrying: true)))
        h.engine.send(.sensor(.lost("i2c-1 @0x68 went away (ENXIO)", retrying: true)))   // a retry that failed the same way
        h.settle()
        var status = h.engine.board.current.status
        #expect(status.sensorLosses == 1 && status.lastSensorLoss == "i2c-1 @0x68 went away (ENXIO)", "\(status)")
        h.engine.send(.sensor(.running(info, captureMode: "polled")))
        var part = SampleLosses()
        part.lostSensors = ["barometer bmp280 on /dev/i2c-1 @0x76 stopped answering"]
        h.engine.send(.losses(part))
        h.settle()
        status = h.engine.board.current.status
        #expect(status.sensorState == "running" && status.sensorLosses == 2, "\(status)")
        #expect(status.value(of: "LastSensorLoss") == "lost barometer bmp280 on /dev/i2c-1 @0x76 stopped answering: what it measured stopped there, the rest goes on")
        #expect(status.changedProperties(since: ServiceStatus(today: status.today)).contains("SensorLosses"))
        #expect(h.engine.stop(waitingUpTo: 5))
    }
}

/// Minutes that never get a date are said in the journal: those of an earlier boot that ended
/// before its clock was set were only counted by `unplacedMinuteCount()`, which nothing printed.
@Suite struct HistoryNoticeTests {
    @Test func minutesOfAnEarlierBootAreSaidOnce() throws {
        let path = try scratch() + "/h.sqlite"
        do {
            let old = try HistoryStore(path: path, bootID: "a-boot-long-ago")
            var snapshot = PedometerSnapshot()
            snapshot.steps = 2
            snapshot.time = 71
            old.record([.step(time: 5), .step(time: 70)], snapshot: snapshot, mapping: nil)   // boot minutes 0 and 1
            try old.commit()
        }
        // The first store's lock is released when it closes; a child this test process forks
        // meanwhile (the parallel run starts daemons and busctl) holds the lock's descriptor until
        // it execs, which on a loaded machine took long enough to refuse the open (inUse) once.
        var opened: HistoryStepStore?
        let deadline = Date().addingTimeInterval(10)
        while opened == nil {
            do { opened = try HistoryStepStore(path: path, retentionDays: nil, configPath: ServiceConfig.defaultPath) } catch HistoryError.inUse where Date() < deadline {
                usleep(50_000)
            }
        }
        let store = try #require(opened)
        let notices = store.takeNotices()
        #expect(notices.count == 1 && notices[0].hasPrefix("2 minutes of earlier boots were counted before the wall clock was set"), "\(notices)")
        #expect(notices.first?.contains(path) == true)
        #expect(store.takeNotices().isEmpty, "once")
    }
}

/// Gaps in an IIO buffer's kernel timestamps are trigger periods without a scan, which a starved
/// guest's hrtimer leaves as surely as a full kernel buffer: they were counted as "buffer
/// overflow", the chip FIFO's loss, and read as a reader that fell behind.
@Suite struct PeriodsWithoutScanTests {
    @Test func theyAreCountedAndSaidAsWhatWasMeasured() {
        var l = SampleLosses()
        l.periodsWithoutScan = 5
        #expect(l.total == 5)
        #expect(l.summary == "dropped 5 (trigger periods without a scan 5)")
        #expect(l.bufferOverflow == 0)
        var sum = SampleLosses()
        sum += l
        sum += l
        #expect(sum.periodsWithoutScan == 10 && sum.since(l).periodsWithoutScan == 5)
        let counter = LossCounter()
        counter.add(periodsWithoutScan: 3)
        #expect(counter.snapshot.periodsWithoutScan == 3 && counter.snapshot.bufferOverflow == 0)
    }

    @Test func theDaemonServesThemInAPropertyOfTheirOwn() {
        var status = ServiceStatus(today: StepTotals(start: Date(), end: Date()))
        status.losses.periodsWithoutScan = 7
        #expect(status.value(of: "DroppedPeriodsWithoutScan") == "7" && status.value(of: "DroppedBufferOverflow") == "0")
        #expect(ServiceStatus.propertySignatures.contains { $0 == ("DroppedPeriodsWithoutScan", "x") })
    }
}
