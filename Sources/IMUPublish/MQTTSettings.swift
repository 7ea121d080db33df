import IMUCore
import Foundation

/// How a device publishes: read from `/etc/imukit/stepd.conf` (`mqtt_*` keys, docs/mqtt.md).
public struct MQTTSettings: Sendable, Equatable {
    public var broker: BrokerAddress
    /// Names this device's topics and its Home Assistant device; [A-Za-z0-9_-] only.
    public var deviceID: String
    /// File with `username=` and `password=` lines (see `MQTTCredentials`); nil: anonymous.
    public var credentialsPath: String?
    /// Who must own the credentials file: the user the service runs as (`CredentialsOwner`).
    public var credentialsOwner: CredentialsOwner = .thisProcess
    /// PEM file of the CA that signed the broker's certificate (mqtts:// only); nil: the system's.
    public var caFile: String?
    /// Prefix of the state and availability topics.
    public var topicPrefix = "imukit"
    /// Home Assistant's discovery prefix (its default).
    public var discoveryPrefix = "homeassistant"
    /// Shortest and longest wait between reconnection attempts, s (doubling in between). One
    /// minute at most: a broker back after a reboot is seen within a minute, and a broker that
    /// stays away costs one connection attempt a minute.
    public var reconnectDelay: ClosedRange<Int> = 1...60

    public init(broker: BrokerAddress, deviceID: String = MQTTSettings.defaultDeviceID(),
                credentialsPath: String? = nil, caFile: String? = nil) {
        self.broker = broker
        self.deviceID = deviceID
        self.credentialsPath = credentialsPath
        self.caFile = caFile
    }

    /// Reads the `mqtt_*` keys of a config file's key-value pairs; nil when no broker is named
    /// (publishing is off). `origin` names the file in errors.
    public static func from(_ values: [String: String], origin: String) throws(PublishError) -> MQTTSettings? {
        guard let url = values["mqtt_broker"], !url.isEmpty else {
            // Publishing was silently off when the broker line was forgotten or left empty.
            let stray = ["mqtt_device_id", "mqtt_credentials", "mqtt_ca_file"].filter { !(values[$0] ?? "").isEmpty }
            guard stray.isEmpty else {
                throw .invalidSetting(origin, "\(stray.joined(separator: ", ")) \(stray.count == 1 ? "is" : "are") set but mqtt_broker is not, so nothing is published",
                                      fix: "name the broker (mqtt_broker = mqtt://HOST, or mqtts://HOST:8883 for TLS), or remove the mqtt_ lines")
            }
            return nil
        }
        var settings = MQTTSettings(broker: try BrokerAddress(parsing: url, origin: origin))
        if let id = values["mqtt_device_id"] {
            if let problem = topicTokenProblem(id) {
                // It said only "must be 1 to 64 of A-Z a-z 0-9 _ -": `kitchen+pi` did not say that
                // '+' is MQTT's wildcard, and an empty value read "mqtt_device_id  must be".
                throw .invalidSetting(origin, "mqtt_device_id '\(id.escapedValue)' \(problem); it names the MQTT topics (imukit/ID/state), so it must be 1 to 64 of A-Z a-z 0-9 _ -",
                                      fix: "choose a name like kitchen-pi, or leave out mqtt_device_id for the host name")
            }
            settings.deviceID = id
        }
        settings.credentialsPath = values["mqtt_credentials"].flatMap { $0.isEmpty ? nil : $0 }
        settings.caFile = values["mqtt_ca_file"].flatMap { $0.isEmpty ? nil : $0 }
        if settings.caFile != nil, !settings.broker.usesTLS {
            throw .invalidSetting(origin, "mqtt_ca_file is set but the broker URL is mqtt:// (no TLS)",
                                  fix: "use mqtts://HOST:8883, or remove mqtt_ca_file")
        }
        return settings
    }

    /// The host name made into a topic token (the default device id).
    public static func defaultDeviceID() -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let name = gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self) : "imukit"
        let cleaned = String(name.prefix(64).map { isTokenCharacter($0) ? $0 : "-" })
        return cleaned.isEmpty ? "imukit" : cleaned
    }

    /// What keeps `text` from being a topic token, or nil when it is one.
    static func topicTokenProblem(_ text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.count > 64 { return "is \(text.count) characters long" }
        guard let bad = text.first(where: { !isTokenCharacter($0) }) else { return nil }
        switch bad {
        case "#", "+": return "holds '\(bad)', a wildcard in MQTT topic filters"
        case "/": return "holds '/', which splits an MQTT topic into levels"
        case " ": return "holds a space"
        case let c where c.isASCII && (c.asciiValue! < 0x20 || c.asciiValue! == 0x7F): return "holds a control character"
        default: return "holds '\(bad)'"
        }
    }

    static func isTopicToken(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.allSatisfy(isTokenCharacter)
    }

    private static func isTokenCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-")
    }

    public var stateTopic: String { "\(topicPrefix)/\(deviceID)/state" }
    public var availabilityTopic: String { "\(topicPrefix)/\(deviceID)/availability" }
}
