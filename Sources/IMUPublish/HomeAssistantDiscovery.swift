import Foundation

/// Home Assistant's MQTT discovery: one retained config message per sensor under
/// `<discovery prefix>/sensor/<device id>/<object id>/config`, so the sensors appear by
/// themselves, grouped as one device, and go unavailable when the device's last will says
/// `offline`. Keys and values follow Home Assistant's MQTT sensor schema (docs/mqtt.md).
public enum HomeAssistantDiscovery {
    /// One sensor of the device.
    public struct Sensor: Sendable, Equatable {
        public var objectID: String
        public var name: String
        /// Key of the state message's JSON object.
        public var stateKey: String
        public var unit: String?
        /// Home Assistant device class; nil where it has none (steps, floors, cadence).
        public var deviceClass: String?
        /// `measurement`, `total_increasing`, or nil (enums have none).
        public var stateClass: String?
        /// The values an `enum` sensor takes.
        public var options: [String]?
        public var icon: String
    }

    /// Activity classes and confidences, as `ActivityClass` and `ActivityConfidence` spell them.
    public static let activities = ["stationary", "walking", "running", "cycling", "vehicle", "unknown"]
    public static let confidences = ["low", "medium", "high"]

    /// Today's totals only grow within a day and drop to zero at local midnight, which is what
    /// `total_increasing` means to Home Assistant (a drop is a new cycle, not a negative change).
    public static let sensors: [Sensor] = [
        Sensor(objectID: "steps_today", name: "Steps today", stateKey: "steps_today", unit: "steps",
               deviceClass: nil, stateClass: "total_increasing", options: nil, icon: "mdi:walk"),
        Sensor(objectID: "distance_today", name: "Distance today", stateKey: "distance_today_m", unit: "m",
               deviceClass: "distance", stateClass: "total_increasing", options: nil, icon: "mdi:map-marker-distance"),
        Sensor(objectID: "floors_ascended_today", name: "Floors up today", stateKey: "floors_ascended_today",
               unit: "floors", deviceClass: nil, stateClass: "total_increasing", options: nil, icon: "mdi:stairs-up"),
        Sensor(objectID: "floors_descended_today", name: "Floors down today", stateKey: "floors_descended_today",
               unit: "floors", deviceClass: nil, stateClass: "total_increasing", options: nil, icon: "mdi:stairs-down"),
        Sensor(objectID: "cadence", name: "Cadence", stateKey: "cadence_spm", unit: "steps/min",
               deviceClass: nil, stateClass: "measurement", options: nil, icon: "mdi:metronome"),
        Sensor(objectID: "activity", name: "Activity", stateKey: "activity", unit: nil,
               deviceClass: "enum", stateClass: nil, options: activities, icon: "mdi:run"),
        Sensor(objectID: "activity_confidence", name: "Activity confidence", stateKey: "confidence", unit: nil,
               deviceClass: "enum", stateClass: nil, options: confidences, icon: "mdi:check-decagram"),
    ]

    /// (topic, payload) of every config message for `settings`' device.
    public static func messages(for settings: MQTTSettings, softwareVersion: String) -> [(topic: String, payload: String)] {
        sensors.map { sensor in
            var config: [String: Any] = [
                "name": sensor.name,
                "unique_id": "imukit_\(settings.deviceID)_\(sensor.objectID)",
                "object_id": "\(settings.deviceID)_\(sensor.objectID)",
                "state_topic": settings.stateTopic,
                "value_template": "{{ value_json.\(sensor.stateKey) }}",
                "availability_topic": settings.availabilityTopic,
                "payload_available": "online",
                "payload_not_available": "offline",
                "qos": 1,
                "icon": sensor.icon,
                "device": [
                    "identifiers": ["imukit_\(settings.deviceID)"],
                    "name": "IMUKit \(settings.deviceID)",
                    "manufacturer": "IMUKit",
                    "model": "imu-stepd",
                    "sw_version": softwareVersion,
                ] as [String: Any],
            ]
            if let unit = sensor.unit { config["unit_of_measurement"] = unit }
            if let deviceClass = sensor.deviceClass { config["device_class"] = deviceClass }
            if let stateClass = sensor.stateClass { config["state_class"] = stateClass }
            if let options = sensor.options { config["options"] = options }
            let data = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data()
            return ("\(settings.discoveryPrefix)/sensor/\(settings.deviceID)/\(sensor.objectID)/config",
                    String(decoding: data, as: UTF8.self))
        }
    }
}
