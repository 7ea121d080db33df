import IMUCore

/// Where the MQTT broker is: `mqtt://host[:port]` (plain, port 1883) or `mqtts://host[:port]`
/// (TLS, port 8883), the IANA-registered MQTT ports.
public struct BrokerAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var usesTLS: Bool

    public init(host: String, port: Int, usesTLS: Bool) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    /// Parses a broker URL; `origin` names where it came from (a config file line) in errors.
    public init(parsing text: String, origin: String) throws(PublishError) {
        let fix = "write it as mqtt://HOST:1883 or mqtts://HOST:8883"
        let scheme: Bool
        let rest: Substring
        if text.hasPrefix("mqtt://") { scheme = false; rest = text.dropFirst(7) }
        else if text.hasPrefix("mqtts://") { scheme = true; rest = text.dropFirst(8) }
        else { throw .invalidSetting(origin, "broker \(text.escapedForTerminal) is not an mqtt:// or mqtts:// URL", fix: fix) }
        var hostPart = rest
        if let slash = hostPart.firstIndex(of: "/") {
            guard hostPart[slash...] == "/" else {
                throw .invalidSetting(origin, "broker \(text.escapedForTerminal) has a path; MQTT brokers have none", fix: fix)
            }
            hostPart = hostPart[..<slash]
        }
        var port = scheme ? 8883 : 1883
        // An IPv6 literal is bracketed: mqtt://[::1]:1883.
        if hostPart.hasPrefix("["), let close = hostPart.firstIndex(of: "]") {
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") { port = try Self.port(after.dropFirst(), text: text, origin: origin, fix: fix) }
            else if !after.isEmpty { throw .invalidSetting(origin, "broker \(text.escapedForTerminal) is malformed", fix: fix) }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            port = try Self.port(hostPart[hostPart.index(after: colon)...], text: text, origin: origin, fix: fix)
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, !hostPart.contains("@") else {
            throw .invalidSetting(origin, "broker \(text.escapedForTerminal) names no host (credentials never go in the URL)",
                                  fix: fix + "; put the user name and password in the credentials file")
        }
        host = String(hostPart)
        self.port = port
        usesTLS = scheme
    }

    private static func port(_ text: Substring, text whole: String, origin: String, fix: String) throws(PublishError) -> Int {
        guard text.count <= 5, let value = Int(text), (1...65_535).contains(value) else {
            throw .invalidSetting(origin, "broker \(whole.escapedForTerminal) has no valid port (1 to 65535)", fix: fix)
        }
        return value
    }

    public var description: String { "\(usesTLS ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
}
