/// The activity seed's scenarios (its section 7) and rides in every placement, as journeys.
/// Speeds are the seed's where it gives one (walk 1.5 m/s, motorway 110 km/h, jam 0.8 m/s,
/// sprint 4.5 m/s, cycling 6 m/s, treadmill 5 km/h); lengths are illustrative.
public enum JourneyCatalogue {
    public static let seedScenarios: [Journey] = [
        Journey(name: "A sidewalk walk", expectation: "walking, high confidence",
                legs: [.init(.foot(Segment(.walk, seconds: 120, cadence: 1.8)), seconds: 120, speed: 1.5)]),
        Journey(name: "B motorway", expectation: "vehicle (driving), high confidence",
                legs: [.init(.drive(.faceUp), seconds: 180, speed: 30.5)]),
        Journey(name: "C traffic jam", expectation: "not walking: vehicle (the seed's tie-breaker)",
                legs: [.init(.drive(.faceUp), seconds: 60, speed: 12),
                       .init(.drive(.faceUp), seconds: 120, speed: 0.8)]),
        Journey(name: "D passenger", expectation: "vehicle: a passenger reads as a driver",
                legs: [.init(.drive(.inHand), seconds: 180, speed: 14)]),
        Journey(name: "E running for a bus", expectation: "running, then stationary",
                legs: [.init(.foot(Segment(.walk, seconds: 30)), seconds: 30, speed: 1.5),
                       .init(.foot(Segment(.run, seconds: 15, cadence: 2.9)), seconds: 15, speed: 4.5),
                       .init(.foot(Segment(.still, seconds: 45, holding: .inHand)), seconds: 45, speed: 0)]),
        Journey(name: "F underground car park", expectation: "walking from the IMU alone, lower confidence",
                legs: [.init(.foot(Segment(.walk, seconds: 20)), seconds: 20, speed: 1.4),
                       .init(.foot(Segment(.walk, seconds: 90)), seconds: 90, speed: 1.4, hasFix: false)]),
        Journey(name: "G cycling at road speed", expectation: "cycling (jersey pocket), not driving",
                legs: [.init(.cycle(.jerseyPocket, crankHz: 1.3), seconds: 180, speed: 6)]),
        Journey(name: "H treadmill", expectation: "walking; the steps count with GPS at 0",
                legs: [.init(.treadmill(Segment(.walk, seconds: 120, cadence: 1.7)), seconds: 120, speed: 0)]),
    ]

    /// A ride in each placement, walked to and away from: walking the bike counts again.
    public static let rides: [Journey] = RidePlacement.allCases.map { placement in
        let pocket: DeviceHolding = placement == .bag ? .bag : placement == .handlebar ? .inHand : .frontPocket
        return Journey(name: "ride, \(placement.rawValue)", expectation: "walking, cycling (no steps), walking",
                       legs: [.init(.foot(Segment(.walk, seconds: 40, holding: pocket)), seconds: 40, speed: 1.4),
                              .init(.cycle(placement, crankHz: 1.2), seconds: 150, speed: 5.5),
                              .init(.foot(Segment(.walk, seconds: 40, holding: pocket)), seconds: 40, speed: 1.4)])
    }

    public static var all: [Journey] { seedScenarios + rides }
}
