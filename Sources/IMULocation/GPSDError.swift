/// Why gpsd could not be used. None of these stop the pedometer: without gpsd it works from the
/// IMU alone (docs/activity.md).
public enum GPSDError: Error, Equatable, CustomStringConvertible {
    /// `host:port` is not of that form.
    case badAddress(String)
    /// gpsd is not running there (or refused the connection). The text names no option: each
    /// caller says how its user changes the address or stops asking (`GPSSpeedFeed.settings`).
    case unreachable(host: String, port: String, reason: String)
    /// The connection broke while reading.
    case lost(reason: String)

    public var description: String {
        switch self {
        case .badAddress(let text):
            // It said only "is not HOST:PORT" for `my host:2947`, `[::1` or `host:99999`: the
            // user had to guess which part was wrong.
            return "GPS address '\(text)': \(Self.problem(text)) (HOST:PORT, for example localhost:2947, or [::1]:2947 for IPv6)"
        case .unreachable(let host, let port, let reason):
            return "gpsd at \(GPSDClient.display(host: host, port: port)) is not reachable (\(reason)); start it (systemctl start gpsd)"
        case .lost(let reason):
            return "the connection to gpsd was lost (\(reason)); continuing from the IMU alone"
        }
    }

    /// What is wrong with an address `GPSDClient.address` refused, in the order it checks: the
    /// brackets of an IPv6 address, the colons, the port (TCP's 1–65535, digits only), the host
    /// (no host name or address holds a space, a control character or a slash).
    static func problem(_ text: String) -> String {
        let host: Substring, port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return "the '[' of an IPv6 address is not closed by ']'" }
            host = text[text.index(after: text.startIndex)..<close]
            if host.isEmpty { return "no address between '[' and ']'" }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return "only ':PORT' may follow the ']'" }
            port = rest.isEmpty ? nil : rest.dropFirst()
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                return "it holds \(parts.count - 1) ':' where HOST:PORT has one; an IPv6 address goes in brackets"
            }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
        }
        if let port {
            if port.isEmpty { return "no port after ':'" }
            guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else { return "the port '\(port)' is not a number" }
            guard let number = Int(port), (1...65535).contains(number) else { return "the port \(port) is outside 1–65535 (TCP's port numbers)" }
        }
        if host.contains(where: { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) }) {
            return "the host holds a control character, which no host name or address has"
        }
        if host.contains(where: \.isWhitespace) { return "the host '\(host)' holds a space, which no host name or address has" }
        if host.contains("/") { return "the host '\(host)' holds a '/', which no host name or address has (give the host alone, not a URL)" }
        return "it is not HOST:PORT"
    }
}
