/// What `--source iio:…` names (docs/iio.md):
///
///     iio:                             local context, best IMU + first barometer
///     iio:local:                       the same
///     iio:ip:HOST[:PORT]               a remote board through iiod (port 30431 by default)
///     iio:ip:HOST:PORT/mpu6050+bmp280  named devices only (an `_accel`/`_gyro` pair by its stem)
///     …?resume=30&trigger=imukit-tick  options: wait up to 30 s for a lost device to return;
///                                      drive a buffer with that trigger when the device has none
public struct IIOSourceSpec: Sendable, Equatable {
    /// libiio URI: "local:" or "ip:HOST[:PORT]".
    public var uri: String
    /// Device names or stems to use; empty = choose automatically.
    public var devices: [String]
    /// Seconds to keep retrying after a device is lost before giving up; 0 = fail at once.
    public var resumeSeconds: Double
    /// Trigger to attach to a buffer-capable device that has no current trigger.
    public var trigger: String?
    /// Force polling even where a buffer would work (`?mode=polled`).
    public var forcePolled: Bool

    public init(uri: String = "local:", devices: [String] = [], resumeSeconds: Double = 0,
                trigger: String? = nil, forcePolled: Bool = false) {
        self.uri = uri
        self.devices = devices
        self.resumeSeconds = resumeSeconds
        self.trigger = trigger
        self.forcePolled = forcePolled
    }

    /// The longest resume window accepted, in seconds (one day; longer is surely a typo).
    static let maximumResumeSeconds = 86_400.0

    /// Parses the text after "iio:".
    public init(parsing spec: String) throws {
        var rest = Substring(spec)
        var options: [(String, String)] = []
        if let q = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2 else { throw IIOError.badSpec(spec, reason: "option '\(pair)' is not NAME=VALUE") }
                options.append((String(kv[0]), String(kv[1])))
            }
            rest = rest[..<q]
        }
        var devices: [String] = []
        if let slash = rest.firstIndex(of: "/") {
            devices = rest[rest.index(after: slash)...].split(separator: "+").map(String.init)
            rest = rest[..<slash]
            if devices.isEmpty { throw IIOError.badSpec(spec, reason: "no device name after '/'") }
        }
        let uri: String
        if rest.isEmpty || rest == "local" || rest == "local:" {
            uri = "local:"
        } else if rest.hasPrefix("ip:") {
            let hostPort = rest.dropFirst("ip:".count)
            guard !hostPort.isEmpty else { throw IIOError.badSpec(spec, reason: "ip: needs a host, e.g. ip:192.168.1.20") }
            // HOST:PORT when there is exactly one colon; an IPv6 literal has several and no port.
            let parts = hostPort.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2 {
                guard !parts[0].isEmpty else { throw IIOError.badSpec(spec, reason: "no host before ':\(parts[1])'") }
                guard let p = Int(parts[1]), (1...65535).contains(p) else {
                    throw IIOError.badSpec(spec, reason: "port '\(parts[1])' is not a number from 1 to 65535")
                }
            }
            uri = "ip:" + hostPort
        } else {
            throw IIOError.badSpec(spec, reason: "expected local: or ip:HOST[:PORT]")
        }
        var resume = 0.0
        var trigger: String?
        var polled = false
        for (k, v) in options {
            switch k {
            case "resume":
                guard let s = Double(v), s >= 0, s <= Self.maximumResumeSeconds else {
                    throw IIOError.badSpec(spec, reason: "resume=\(v) is not a number of seconds from 0 to 86400")
                }
                resume = s
            case "trigger": trigger = v
            case "mode":
                guard v == "polled" || v == "auto" else { throw IIOError.badSpec(spec, reason: "mode=\(v): use polled or auto") }
                polled = v == "polled"
            default: throw IIOError.badSpec(spec, reason: "unknown option '\(k)' (known: resume, trigger, mode)")
            }
        }
        self.init(uri: uri, devices: devices, resumeSeconds: resume, trigger: trigger, forcePolled: polled)
    }
}
