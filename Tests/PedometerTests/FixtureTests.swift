import Foundation
import Testing
@testable import Pedometer

/// Real phone recordings from the Oxford step-counter DataSet (CC BY 4.0, see Fixtures/ATTRIBUTION.md).
@Suite struct FixtureTests {
    static let names = ["samsung-jamie-hard-inhand-1", "samsung-carmelo-hard-backpocket-1", "samsung-carmelo-hard-purse-1-half"]

    @Test(arguments: names)
    func realRecordingWithinFourPercent(name: String) throws {
        let csv = try #require(Bundle.module.url(forResource: name, withExtension: "csv", subdirectory: "Fixtures"))
        let json = try #require(Bundle.module.url(forResource: name + ".truth", withExtension: "json", subdirectory: "Fixtures"))
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let trueSteps = try #require(truth["steps"] as? Int)
        let reader = try RecordingReader(path: csv.path)
        var samples: [MotionSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        #expect(!reader.capabilities.gyroscope)
        let (_, snapshot) = runPedometer(samples, capabilities: reader.capabilities)
        #expect(relativeError(snapshot.steps, trueSteps) <= 0.04, "\(name): \(snapshot.steps) vs \(trueSteps)")
    }
}
