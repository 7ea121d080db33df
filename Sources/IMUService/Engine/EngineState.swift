import Foundation
import IMUCLI
import IMUServiceClient
import Pedometer
import Synchronization

/// Everything the engine thread owns. Created on that thread and never shared.
struct EngineState {
    let config: ServiceConfig
    let clock: any WallClock
    let log: ServiceLog
    let store: any StepStore
    let board: StatusBoard
    let onReset: @Sendable () -> Void

    var pedometer: Pedometer?
    var sensor: SourceInfo?
    var ledger = TodayLedger()
    var status: ServiceStatus
    var paused = false
    var dirty = false
    var lastSampleTime: Double?
    var nextCommit: Double
    var synchronized = false
    var nextClockCheck = -Double.infinity
    /// Ground speed from gpsd, when the config's `gps` names one (issue 15, docs/gps.md).
    var groundSpeed: GroundSpeedInput?
    /// What the sources lost, for the Dropped* properties and the journal.
    var losses = LossJournal()

    init(config: ServiceConfig, clock: any WallClock, log: ServiceLog, store: any StepStore, board: StatusBoard,
         onReset: @escaping @Sendable () -> Void) {
        self.config = config
        self.clock = clock
        self.log = log
        self.store = store
        self.board = board
        self.onReset = onReset
        status = board.current.status
        nextCommit = BootClock.nowSeconds() + config.commitSeconds
        groundSpeed = config.gpsd.flatMap { GroundSpeedInput.started(address: $0) { [log] in log.notice($0) } }
    }

    mutating func run(mailbox: Mailbox, heartbeat: borrowing Atomic<Int64>) {
        refreshClock(force: true)
        rebase()
        for notice in store.takeNotices() { log.warning(notice) }
        publish()
        while true {
            heartbeat.store(BootClock.nowNanoseconds(), ordering: .relaxed)
            let wait = dirty ? nextCommit - BootClock.nowSeconds() : config.commitSeconds
            var samples = false
            for message in mailbox.receive(waitingUpTo: wait) {
                if case .stop = message {
                    if let line = losses.finalLine() { log.notice(line) }
                    groundSpeed?.feed.stop()
                    finishPedometer()
                    commit()
                    return
                }
                if case .samples = message { samples = true }
                handle(message)
            }
            // Samples come every hand-over: a commit due before the next one is made now, on this
            // wake-up, rather than on a timer of its own (never later than commit_seconds).
            let early = samples ? HandOver.seconds : 0
            if BootClock.nowSeconds() >= nextCommit - early {
                if dirty { commit() }
                nextCommit = BootClock.nowSeconds() + config.commitSeconds
            }
            publish()
        }
    }

    mutating func handle(_ message: EngineMessage) {
        switch message {
        case let .samples(batch): process(batch)
        case let .losses(grown):
            for line in losses.add(grown, now: BootClock.nowSeconds()) { log.warning(line) }
            for part in grown.lostSensors { noteSensorLoss(LossJournal.partLost(part)) }
            status.losses = losses.total
        case let .sensor(report): sensorChanged(report)
        case let .query(q, reply): reply(answer(q))
        case let .control(c, reply): reply(control(c))
        case .stop: break
        }
    }

    // MARK: Samples

    mutating func process(_ batch: [MotionSample]) {
        guard !paused, !batch.isEmpty else { return }
        if pedometer == nil, let sensor {
            pedometer = Pedometer(configuration: config.pedometer, capabilities: sensor.capabilities)
            ledger.pedometerReplaced()
        }
        guard var p = pedometer else { return }
        var events: [PedometerEvent] = []
        if groundSpeed != nil {
            groundSpeed!.process(batch, pedometer: &p, into: &events)
        } else {
            p.process(contentsOf: batch, into: &events)
        }
        pedometer = p
        lastSampleTime = batch[batch.count - 1].time
        record(events, p.snapshot)
    }

    mutating func record(_ events: [PedometerEvent], _ snapshot: PedometerSnapshot) {
        ledger.add(events, snapshot: snapshot)
        store.record(events, snapshot: snapshot, mapping: mapping())
        dirty = true
        status.activity = snapshot.activity.rawValue
        status.activityConfidence = snapshot.confidence.rawValue
        status.cadence = snapshot.currentCadence ?? 0
    }

    /// Sample clock → wall clock, or nil while the wall clock is not synchronised. Boot-clock
    /// sources map through CLOCK_BOOTTIME; a simulation's clock is anchored at its latest sample.
    mutating func mapping() -> BootTimeMapping? {
        refreshClock(force: false)
        guard synchronized else { return nil }
        let reference = (sensor?.isSimulated ?? false) ? (lastSampleTime ?? BootClock.nowSeconds()) : BootClock.nowSeconds()
        return BootTimeMapping(wallTimeAtBoot: clock.now().addingTimeInterval(-reference))
    }

    /// adjtimex and a file check at most every 10 s (a clock synchronises once per boot).
    mutating func refreshClock(force: Bool) {
        let now = BootClock.nowSeconds()
        guard force || now >= nextClockCheck else { return }
        nextClockCheck = now + 10
        let was = synchronized
        synchronized = clock.isSynchronized()
        status.clockSynchronized = synchronized
        if force && !synchronized {
            log.warning("the wall clock is not synchronised yet (no NTP, no RTC): minutes are kept by boot time and placed on their dates once it is; set clock = trust in \(config.path) if this clock is right")
        } else if synchronized && !was && !force {
            log.notice("the wall clock is synchronised: held minutes are placed on their dates")
        }
    }

    mutating func finishPedometer() {
        guard var p = pedometer else { return }
        var events: [PedometerEvent] = []
        p.finish(into: &events)
        record(events, p.snapshot)
        pedometer = nil
    }

    // MARK: Sensor

    mutating func sensorChanged(_ report: SensorReport) {
        switch report {
        case let .running(info, mode, reason):
            if let old = sensor, old.capabilities != info.capabilities { finishPedometer() }
            let same = sensor == info && status.captureMode == mode && status.sensorState == "running" && status.sensorMessage == reason
            sensor = info
            status.sensor = info.name
            status.sensorCapabilities = Self.names(info.capabilities)
            status.captureMode = mode
            status.sensorState = paused ? "paused" : "running"
            status.sensorMessage = reason
            if !same { log.notice("counting steps from \(info.name)\(mode.isEmpty ? "" : " (\(mode))")\(reason.isEmpty ? "" : ": \(reason)")") }
        case let .waiting(message):
            // Not lost: the sensor is there and comes back by itself. No samples meanwhile.
            if status.sensorState != "waiting" || status.sensorMessage != message {
                log.warning("not counting for now: \(message); totals are kept")
            }
            status.captureMode = "none"
            status.sensorState = "waiting"
            status.sensorMessage = message
            status.cadence = 0
        case let .lost(message, retrying):
            if status.sensorState != "lost" || status.sensorMessage != message {
                log.warning("sensor lost: \(message); totals are kept" + (retrying ? ", retrying" : ""))
            }
            // Mid-run: it was counting (or paused, or waiting for a buffer) and is gone. Not a
            // sensor that was never found at the start ("starting"), nor each retry of one lost.
            if ["running", "paused", "waiting"].contains(status.sensorState) { noteSensorLoss(message) }
            status.sensorState = "lost"
            status.sensorMessage = message
            status.cadence = 0
        case .ended:
            finishPedometer()
            status.sensorState = "stopped"
            status.sensorMessage = "the source ended"
            log.notice("the source ended")
        }
    }

    /// One more sensor lost mid-run, for `SensorLosses` and `LastSensorLoss`.
    mutating func noteSensorLoss(_ what: String) {
        status.sensorLosses += 1
        status.lastSensorLoss = what
    }

    static func names(_ c: SensorCapabilities) -> [String] {
        [("accelerometer", c.accelerometer), ("gyroscope", c.gyroscope), ("barometer", c.barometer),
         ("thermometer", c.thermometer)].filter(\.1).map(\.0)
    }

    // MARK: Storage

    mutating func commit() {
        do {
            try store.commit()
            dirty = false
            for notice in store.takeNotices() { log.warning(notice) }
            if status.storageState != "ok" { log.notice("history written again: \(config.resolvedDatabasePath)") }
            status.storageState = "ok"
            status.storageMessage = ""
            rebase()
        } catch {
            let full = StorageTrouble.isDiskFull(error)
            let state = full ? "full" : "error"
            let message = full ? "disk full: counting in memory, written when space returns (\(error))" : "\(error)"
            if status.storageState != state { log.error("history not written: \(message)") }
            status.storageState = state
            status.storageMessage = message
        }
    }

    /// Reads today's stored totals (only with a synchronised clock: held minutes are not on a day yet).
    mutating func rebase() {
        guard synchronized else { return }
        let day = LocalDay.interval(containing: clock.now())
        if let t = try? store.totals(from: day.start, to: day.end) { ledger.rebase(t) }
    }

    mutating func publish() {
        if synchronized, let day = ledger.day, !day.contains(clock.now()) {
            // Midnight passed (or the clock jumped): today is another day.
            if dirty { commit() } else { rebase() }
        }
        if ledger.day == nil { rebase() }
        if let groundSpeed, let sensor {   // issue 15: ground speed is a capability while gpsd answers
            status.sensorCapabilities = Self.names(sensor.capabilities) + (groundSpeed.isAvailable ? ["gnss_speed"] : [])
        }
        status.today = ledger.today
        status.paused = paused
        board.publish(status)
    }

    // MARK: Queries and controls

    mutating func answer(_ q: EngineQuery) -> EngineAnswer {
        if dirty { commit() }  // answers include the latest minutes (on a full disk: what is stored)
        do {
            switch q {
            case let .totals(from, to): return .totals(try store.totals(from: from, to: to))
            case let .days(from, to, zone): return .days(try store.days(from: from, to: to, timeZone: zone))
            case let .intervals(bounds):
                return .days(try zip(bounds, bounds.dropFirst()).map { try store.totals(from: $0, to: $1) })
            case let .activities(from, to): return .activities(try store.activities(from: from, to: to))
            }
        } catch {
            return .failure(name: StepServiceNames.Errors.storage, message: "the history could not be read: \(error)")
        }
    }

    mutating func control(_ c: ControlCommand) -> EngineAnswer {
        let t = lastSampleTime ?? BootClock.nowSeconds()
        switch c {
        case .pause:
            guard !paused else { return .done }
            finishPedometer()
            store.recordPause(bootSeconds: t)
            dirty = true
            paused = true
            status.sensorState = "paused"
            log.notice("paused: no steps are counted until Resume")
        case .resume:
            guard paused else { return .done }
            store.recordResume(bootSeconds: t)
            dirty = true
            paused = false
            status.sensorState = sensor == nil ? "starting" : "running"
            log.notice("resumed")
        case .reset:
            finishPedometer()
            log.notice("reset: the pedometer starts afresh and the sensor is reopened; history is kept")
            onReset()
        }
        // The answer goes out after the status board shows the change: a client that reads
        // Paused right after Pause() returns sees it.
        publish()
        return .done
    }
}
