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
        if hostPart.hasPrefix("[") {
            // `mqtt://[::1` was taken as the host "[:" on port 1.
            guard let close = hostPart.firstIndex(of: "]") else {
                throw .invalidSetting(origin, "broker \(text.escapedForTerminal): the '[' of an IPv6 address is not closed by ']'",
                                      fix: fix + ", e.g. mqtt://[::1]:1883")
            }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") { port = try Self.port(after.dropFirst(), text: text, origin: origin, fix: fix) }
            else if !after.isEmpty {
                throw .invalidSetting(origin, "broker \(text.escapedForTerminal): only ':PORT' may follow the ']'", fix: fix + ", e.g. mqtt://[::1]:1883")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if hostPart.filter({ $0 == ":" }).count > 1 {
            // `mqtt://::1` was read as the host ":" on port 1.
            throw .invalidSetting(origin, "broker \(text.escapedForTerminal) holds more than one ':' outside brackets; an IPv6 address goes in brackets",
                                  fix: fix + ", e.g. mqtt://[::1]:1883")
        } else if let colon = hostPart.lastIndex(of: ":") {
            port = try Self.port(hostPart[hostPart.index(after: colon)...], text: text, origin: origin, fix: fix)
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, !hostPart.contains("@") else {
            throw .invalidSetting(origin, "broker \(text.escapedForTerminal) names no host (credentials never go in the URL)",
                                  fix: fix + "; put the user name and password in the credentials file")
        }
        // No host name or address holds a space, a control character or a quote: `mqtt://my broker`
        // was accepted and failed at each connection, in the journal only.
        if let bad = hostPart.first(where: { $0.isWhitespace || $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) || "\"'\\".contains($0) }) {
            let what = bad == " " ? "a space" : "\"'\\".contains(bad) ? "'\(bad)'" : "a control character or a space"
            throw .invalidSetting(origin, "broker \(text.escapedForTerminal): the host holds \(what), which no host name or address has",
                                  fix: fix + ", with the broker's host name or IP address alone, e.g. mqtt://broker.lan:1883")
        }
        host = String(hostPart)
        self.port = port
        usesTLS = scheme
    }

    private static func port(_ text: Substring, text whole: String, origin: String, fix: String) throws(PublishError) -> Int {
        // `:+1883` was read as 1883; a port is digits only.
        guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), (1...65_535).contains(value) else {
            throw .invalidSetting(origin, "broker \(whole.escapedForTerminal) has no valid port (1 to 65535)", fix: fix)
        }
        return value
    }

    public var description: String { "\(usesTLS ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
}
