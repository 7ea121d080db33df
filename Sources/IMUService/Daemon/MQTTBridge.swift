import Foundation
import IMUPublish
import IMUServiceClient

/// Hands the daemon's status to the MQTT publisher (docs/mqtt.md): each change of the status board
/// passes today's totals, cadence and activity on (no timer: it wakes nobody by itself). The
/// publisher stores the newest state and sends what changed from its own thread.
final class MQTTBridge: Sendable {
    let publisher: MQTTPublisher

    /// Starts publishing; a bad credentials or CA file throws (the daemon stops with its fix).
    init(settings: MQTTSettings, board: StatusBoard, log: ServiceLog, softwareVersion: String) throws {
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: softwareVersion,
                                          log: { log.notice($0) })
        self.publisher = publisher
        board.observe { publisher.update(PublishedState($0)) }
    }

    /// Publishes `offline` and disconnects.
    func stop() {
        publisher.stop()
    }
}

extension PublishedState {
    /// What a status board entry publishes: today's totals and what the user does now.
    init(_ status: ServiceStatus) {
        self.init(stepsToday: status.today.steps, distanceTodayMeters: status.today.distanceMeters,
                  floorsAscendedToday: status.today.floorsAscended, floorsDescendedToday: status.today.floorsDescended,
                  cadenceStepsPerSecond: status.cadence > 0 ? status.cadence : nil,
                  activity: status.activity, confidence: status.activityConfidence)
    }
}
