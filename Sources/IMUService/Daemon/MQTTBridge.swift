import Foundation
import IMUPublish
import IMUServiceClient

/// Hands the daemon's status to the MQTT publisher (docs/mqtt.md): once a second it reads the
/// status board and passes today's totals, cadence and activity on. The publisher sends only what
/// changed, from its own thread; this task never blocks (it sleeps between reads).
final class MQTTBridge: Sendable {
    let publisher: MQTTPublisher
    private let task: Task<Void, Never>

    /// Starts publishing; a bad credentials or CA file throws (the daemon stops with its fix).
    init(settings: MQTTSettings, board: StatusBoard, log: ServiceLog, softwareVersion: String) throws {
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: softwareVersion,
                                          log: { log.notice($0) })
        self.publisher = publisher
        task = Task {
            while !Task.isCancelled {
                publisher.update(PublishedState(board.current.status))
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Publishes `offline` and disconnects.
    func stop() {
        task.cancel()
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
