import FoundationEssentials
import IMUCore

/// The daemon's properties (data/io.github.imukit.StepService1.xml), read in one `GetAll`.
public struct ServiceStatus: Sendable, Equatable {
    /// Today's totals (local day of the daemon's time zone), including what is not committed yet.
    public var today: StepTotals
    /// "stationary", "walking", "running", "vehicle" or "unknown".
    public var activity: String = "unknown"
    /// "low", "medium" or "high".
    public var activityConfidence: String = "low"
    /// Steps per second; 0 when not walking.
    public var cadence: Double = 0
    /// The source in use, e.g. "iio:local:/mpu6050"; "" when none is open.
    public var sensor: String = ""
    /// What the source measures: "accelerometer", "gyroscope", "barometer", "thermometer".
    public var sensorCapabilities: [String] = []
    /// "buffered", "polled" or "" (how samples are captured; "" when unknown or no sensor).
    public var captureMode: String = ""
    /// "starting", "running", "lost" (sensor gone, waiting for it), "paused", "stopped".
    public var sensorState: String = "starting"
    /// A sentence for people: why the sensor is lost, what is being tried.
    public var sensorMessage: String = ""
    /// "ok", "full" (disk full: counting in memory, written when space returns), "error".
    public var storageState: String = "ok"
    public var storageMessage: String = ""
    /// Reading paused by Pause() (no samples are counted until Resume()).
    public var paused: Bool = false
    /// Minutes waiting for the wall clock to be synchronised (boot-clock times kept, placed later).
    public var clockSynchronized: Bool = true
    /// Samples the sources lost since the daemon started, by cause (the `Dropped*` properties:
    /// what imu-steps prints as `dropped_*` at the end of a run).
    public var losses = SampleLosses()
    /// Sensors lost mid-run since the daemon started (`SensorLosses`): a source that stopped while
    /// it was counting (`SensorState` went to `lost`; back to `running` when reopened, so the
    /// state alone forgets it), or a part of one that stopped while the rest went on (a
    /// barometer beside the IMU: the state stays `running`).
    public var sensorLosses = 0
    /// What the latest of those was, in words (`LastSensorLoss`); "" while there was none.
    public var lastSensorLoss = ""
    /// The settings file the daemon read (`Config`), for messages that name the key to change.
    public var configPath = ""

    public init(today: StepTotals) { self.today = today }

    /// Property names and D-Bus signatures, in the order of the introspection XML.
    public static let propertySignatures: [(name: String, signature: String)] = [
        ("TodaySteps", "x"), ("TodayDistance", "d"), ("TodayFloorsAscended", "x"), ("TodayFloorsDescended", "x"),
        ("TodayActiveSeconds", "d"), ("Activity", "s"), ("ActivityConfidence", "s"), ("Cadence", "d"),
        ("Sensor", "s"), ("SensorCapabilities", "as"), ("CaptureMode", "s"), ("SensorState", "s"),
        ("SensorMessage", "s"), ("StorageState", "s"), ("StorageMessage", "s"), ("Paused", "b"),
        ("ClockSynchronized", "b"), ("DroppedBufferOverflow", "x"), ("DroppedTimeNotIncreasing", "x"),
        ("DroppedStalledConsumer", "x"), ("DroppedMissedPolls", "x"), ("DroppedPressureReadings", "x"),
        ("SensorLosses", "x"), ("LastSensorLoss", "s"), ("DroppedPeriodsWithoutScan", "x"), ("Config", "s"),
    ]

    /// The counts behind the `Dropped*` properties, by property name.
    static let lossCounts: [String: any WritableKeyPath<SampleLosses, Int> & Sendable] = [
        "DroppedBufferOverflow": \.bufferOverflow, "DroppedTimeNotIncreasing": \.nonIncreasingTime,
        "DroppedStalledConsumer": \.stalledConsumer, "DroppedMissedPolls": \.missedPolls,
        "DroppedPressureReadings": \.outOfRangePressure, "DroppedPeriodsWithoutScan": \.periodsWithoutScan,
    ]

    /// Appends one property's value inside a variant.
    public func writeProperty(_ name: String, to m: BusMessage) throws {
        guard let sig = Self.propertySignatures.first(where: { $0.name == name })?.signature else {
            throw BusError(.failed, "no property \(name)")
        }
        try m.open("v", sig)
        switch name {
        case "TodaySteps": try m.append(Int64(today.steps))
        case "TodayDistance": try m.append(today.distanceMeters)
        case "TodayFloorsAscended": try m.append(Int64(today.floorsAscended))
        case "TodayFloorsDescended": try m.append(Int64(today.floorsDescended))
        case "TodayActiveSeconds": try m.append(today.activeSeconds)
        case "Activity": try m.append(activity)
        case "ActivityConfidence": try m.append(activityConfidence)
        case "Cadence": try m.append(cadence)
        case "Sensor": try m.append(sensor)
        case "SensorCapabilities":
            try m.open("a", "s")
            for c in sensorCapabilities { try m.append(c) }
            try m.close()
        case "CaptureMode": try m.append(captureMode)
        case "SensorState": try m.append(sensorState)
        case "SensorMessage": try m.append(sensorMessage)
        case "StorageState": try m.append(storageState)
        case "StorageMessage": try m.append(storageMessage)
        case "Paused": try m.append(paused)
        case "ClockSynchronized": try m.append(clockSynchronized)
        case "SensorLosses": try m.append(Int64(sensorLosses))
        case "LastSensorLoss": try m.append(lastSensorLoss)
        case "Config": try m.append(configPath)
        case let name where Self.lossCounts[name] != nil: try m.append(Int64(losses[keyPath: Self.lossCounts[name]!]))
        default: break
        }
        try m.close()
    }

    /// The names whose values differ from `other` (for PropertiesChanged).
    public func changedProperties(since other: ServiceStatus) -> [String] {
        Self.propertySignatures.map(\.name).filter { value(of: $0) != other.value(of: $0) }
    }

    /// A comparable text form of one property (used only to detect changes).
    func value(of name: String) -> String {
        switch name {
        case "TodaySteps": "\(today.steps)"
        case "TodayDistance": "\(today.distanceMeters)"
        case "TodayFloorsAscended": "\(today.floorsAscended)"
        case "TodayFloorsDescended": "\(today.floorsDescended)"
        case "TodayActiveSeconds": "\(today.activeSeconds)"
        case "Activity": activity
        case "ActivityConfidence": activityConfidence
        case "Cadence": "\(cadence)"
        case "Sensor": sensor
        case "SensorCapabilities": sensorCapabilities.joined(separator: ",")
        case "CaptureMode": captureMode
        case "SensorState": sensorState
        case "SensorMessage": sensorMessage
        case "StorageState": storageState
        case "StorageMessage": storageMessage
        case "Paused": "\(paused)"
        case "ClockSynchronized": "\(clockSynchronized)"
        case "SensorLosses": "\(sensorLosses)"
        case "LastSensorLoss": lastSensorLoss
        case "Config": configPath
        case let name where Self.lossCounts[name] != nil: "\(losses[keyPath: Self.lossCounts[name]!])"
        default: ""
        }
    }

    /// Reads an `a{sv}` from GetAll; unknown properties are skipped (a newer daemon may add some).
    public static func read(from m: BusMessage, now: Date = Date()) throws -> ServiceStatus {
        var s = ServiceStatus(today: StepTotals(start: now, end: now))
        _ = try m.enter("a", "{sv}")
        while try m.enter("e", "sv") {
            let name = try m.readString()
            guard let sig = propertySignatures.first(where: { $0.name == name })?.signature,
                  let next = try m.peek(), next.contents == sig else {
                try m.skip("v")
                try m.exit()
                continue
            }
            _ = try m.enter("v", sig)
            switch name {
            case "TodaySteps": s.today.steps = Int(clamping: try m.readInt64())
            case "TodayDistance": s.today.distanceMeters = try m.readDouble()
            case "TodayFloorsAscended": s.today.floorsAscended = Int(clamping: try m.readInt64())
            case "TodayFloorsDescended": s.today.floorsDescended = Int(clamping: try m.readInt64())
            case "TodayActiveSeconds": s.today.activeSeconds = try m.readDouble()
            case "Activity": s.activity = try m.readString()
            case "ActivityConfidence": s.activityConfidence = try m.readString()
            case "Cadence": s.cadence = try m.readDouble()
            case "Sensor": s.sensor = try m.readString()
            case "SensorCapabilities":
                _ = try m.enter("a", "s")
                while try m.peek() != nil { s.sensorCapabilities.append(try m.readString()) }
                try m.exit()
            case "CaptureMode": s.captureMode = try m.readString()
            case "SensorState": s.sensorState = try m.readString()
            case "SensorMessage": s.sensorMessage = try m.readString()
            case "StorageState": s.storageState = try m.readString()
            case "StorageMessage": s.storageMessage = try m.readString()
            case "Paused": s.paused = try m.readBool()
            case "ClockSynchronized": s.clockSynchronized = try m.readBool()
            case "SensorLosses": s.sensorLosses = Int(clamping: max(0, try m.readInt64()))
            case "LastSensorLoss": s.lastSensorLoss = try m.readString()
            case "Config": s.configPath = try m.readString()
            case let name where lossCounts[name] != nil:
                s.losses[keyPath: lossCounts[name]!] = Int(clamping: max(0, try m.readInt64()))
            default: try m.skip(sig)
            }
            try m.exit()
            try m.exit()
        }
        try m.exit()
        return s
    }
}
