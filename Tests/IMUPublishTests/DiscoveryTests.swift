import Foundation
import Testing
@testable import IMUPublish

/// Home Assistant's MQTT sensor schema, as its documentation gives it: the keys a config must
/// have, the state classes and device classes it knows, and the units a device class allows.
@Suite struct DiscoveryTests {
    static let settings = MQTTSettings(broker: BrokerAddress(host: "h", port: 1883, usesTLS: false), deviceID: "pi4")
    static let stateClasses: Set<String> = ["measurement", "total", "total_increasing"]
    static let distanceUnits: Set<String> = ["km", "m", "cm", "mm", "mi", "yd", "ft", "in"]

    @Test func everySensorHasAValidConfig() throws {
        let messages = HomeAssistantDiscovery.messages(for: Self.settings, softwareVersion: "0.9.0")
        #expect(messages.count == 7)
        var uniqueIDs = Set<String>()
        for (topic, payload) in messages {
            let parts = topic.split(separator: "/")
            #expect(parts.count == 5 && parts[0] == "homeassistant" && parts[1] == "sensor" && parts[2] == "pi4" && parts[4] == "config")
            let config = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
            for key in ["name", "unique_id", "state_topic", "value_template", "availability_topic", "device"] {
                #expect(config[key] != nil, "\(topic) lacks \(key)")
            }
            #expect(config["state_topic"] as? String == "imukit/pi4/state")
            #expect(config["availability_topic"] as? String == "imukit/pi4/availability")
            let device = try #require(config["device"] as? [String: Any])
            #expect((device["identifiers"] as? [String]) == ["imukit_pi4"])
            uniqueIDs.insert(try #require(config["unique_id"] as? String))
            if let stateClass = config["state_class"] as? String { #expect(Self.stateClasses.contains(stateClass)) }
            switch config["device_class"] as? String {
            case "distance": #expect(Self.distanceUnits.contains(config["unit_of_measurement"] as? String ?? ""))
            case "enum":
                #expect(config["unit_of_measurement"] == nil && config["state_class"] == nil)
                #expect(!((config["options"] as? [String]) ?? []).isEmpty)
            case nil: break
            case let other: Issue.record("unexpected device_class \(other ?? "")")
            }
        }
        #expect(uniqueIDs.count == 7)
    }

    @Test func stepsTodayIsTotalIncreasing() throws {
        let (_, payload) = try #require(HomeAssistantDiscovery.messages(for: Self.settings, softwareVersion: "1")
            .first { $0.topic.contains("/steps_today/") })
        let config = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect(config["state_class"] as? String == "total_increasing")
        #expect(config["unit_of_measurement"] as? String == "steps")
    }

    @Test func everyTemplateNamesAKeyOfTheStateMessage() throws {
        let state = PublishedState(stepsToday: 1234, distanceTodayMeters: 901.456, floorsAscendedToday: 3,
                                   floorsDescendedToday: 1, cadenceStepsPerSecond: 1.8, activity: "walking", confidence: "high")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(state.json.utf8)) as? [String: Any])
        for sensor in HomeAssistantDiscovery.sensors { #expect(json[sensor.stateKey] != nil, "\(sensor.stateKey)") }
        #expect(json["steps_today"] as? Int == 1234)
        #expect(json["cadence_spm"] as? Double == 108)
        #expect(json["distance_today_m"] as? Double == 901.46)
        // Without a cadence (standing), the key is null; a label that is no enum value is not sent raw.
        let idle = PublishedState(activity: "walk\"ing")
        let idleJSON = try #require(try JSONSerialization.jsonObject(with: Data(idle.json.utf8)) as? [String: Any])
        #expect(idleJSON["cadence_spm"] is NSNull && idleJSON["activity"] as? String == "unknown")
    }

    /// A distance or cadence that is not finite was written as printf does, "nan" or "inf": no
    /// JSON, so the subscriber dropped the whole message, the steps with it. It is null now.
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aValueThatIsNotFiniteIsNull(value: Double) throws {
        let state = PublishedState(stepsToday: 12, distanceTodayMeters: value, cadenceStepsPerSecond: value)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(state.json.utf8)) as? [String: Any], "\(state.json)")
        #expect(json["steps_today"] as? Int == 12)
        #expect(json["distance_today_m"] is NSNull && json["cadence_spm"] is NSNull, "\(state.json)")
    }
}
