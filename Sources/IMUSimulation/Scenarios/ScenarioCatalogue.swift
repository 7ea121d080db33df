/// The built-in scenarios, by name.
enum ScenarioCatalogue {
    static let names = ["still", "stroll", "walk", "run", "stairs-up", "stairs-down", "elevator", "bus", "wave",
                        "day", "day-extended", "demo", "six-position", "hour", "commute"]

    static func scenario(named name: String) -> Scenario? {
        let segments: [Segment]
        switch name {
        case "still": segments = [Segment(.still, seconds: 60)]
        case "stroll": segments = [Segment(.stroll, seconds: 120)]
        case "walk": segments = [Segment(.walk, seconds: 120)]
        case "run": segments = [Segment(.run, seconds: 90)]
        case "stairs-up": segments = [Segment(.still, seconds: 5), Segment(.stairsUp(floors: 3)), Segment(.still, seconds: 5)]
        case "stairs-down": segments = [Segment(.still, seconds: 5), Segment(.stairsDown(floors: 3)), Segment(.still, seconds: 5)]
        case "elevator": segments = [Segment(.elevatorUp(floors: 4)), Segment(.elevatorDown(floors: 4))]
        case "bus": segments = [Segment(.bus, seconds: 180)]
        case "wave": segments = [Segment(.still, seconds: 5), Segment(.wave, seconds: 15), Segment(.still, seconds: 5)]
        case "day": segments = day
        case "day-extended": segments = dayExtended
        case "demo": segments = demo
        case "six-position": return .sixPosition()
        case "hour": segments = hour
        case "commute": segments = commute
        default: return nil
        }
        return Scenario(name: name, segments: segments)
    }

    /// The pedometer seed article's synthetic day, in 3-D: still 20 s, walk 120 s at 1.8 steps/s
    /// (0.25 g), bus 60 s, run 90 s at 2.8 (0.8 g), still 20 s, wave 15 s, walk 60 s at 1.6 (0.18 g).
    /// That is 385 s (the article says 485 s, but its own segments add up to 385 s) and about
    /// 560 steps (the article counts 563; ours differ with the random numbers).
    static let day: [Segment] = [
        Segment(.still, seconds: 20, holding: .faceUp),
        Segment(.walk, seconds: 120, cadence: 1.8, amplitude: 0.25, holding: .inHand),
        Segment(.bus, seconds: 60, holding: .inHand),
        Segment(.run, seconds: 90, cadence: 2.8, amplitude: 0.8, holding: .armband),
        Segment(.still, seconds: 20, holding: .faceUp),
        Segment(.wave, seconds: 15, holding: .inHand),
        Segment(.walk, seconds: 60, cadence: 1.6, amplitude: 0.18, holding: .frontPocket),
    ]

    /// The synthetic day, then an office visit: stairs up 3 floors, elevator up 2, stairs down 2,
    /// elevator down 3 (floors on foot: 3 up, 2 down).
    static let dayExtended: [Segment] = day + [
        Segment(.walk, seconds: 30, cadence: 1.7, amplitude: 0.22, holding: .frontPocket),
        Segment(.stairsUp(floors: 3), holding: .frontPocket),
        Segment(.walk, seconds: 20, cadence: 1.7, amplitude: 0.22, holding: .frontPocket),
        Segment(.elevatorUp(floors: 2), holding: .inHand),
        Segment(.walk, seconds: 15, cadence: 1.7, amplitude: 0.22, holding: .inHand),
        Segment(.stairsDown(floors: 2), holding: .inHand),
        Segment(.walk, seconds: 20, cadence: 1.7, amplitude: 0.22, holding: .inHand),
        Segment(.elevatorDown(floors: 3), holding: .inHand),
        Segment(.still, seconds: 10, holding: .faceUp),
    ]

    /// About two minutes: a walk with a flight of stairs up and back down (`imu-steps` with no sensor).
    static let demo: [Segment] = [
        Segment(.still, seconds: 5, holding: .faceUp),
        Segment(.walk, seconds: 45, holding: .inHand),
        Segment(.stairsUp(floors: 1), holding: .inHand),
        Segment(.walk, seconds: 30, holding: .inHand),
        Segment(.stairsDown(floors: 1), holding: .inHand),
        Segment(.walk, seconds: 20, holding: .inHand),
        Segment(.still, seconds: 5, holding: .faceUp),
    ]

    /// One hour of mixed activity (the benchmarks' standard load): a commute with walks, a bus ride,
    /// office stairs, an elevator, desk time and an evening run.
    static let hour: [Segment] = {
        let active: [Segment] = [
        Segment(.still, seconds: 120, holding: .faceUp),
        Segment(.walk, seconds: 480, holding: .frontPocket),
        Segment(.still, seconds: 180, holding: .inHand),
        Segment(.bus, seconds: 900, holding: .inHand),
        Segment(.walk, seconds: 300, holding: .inHand),
        Segment(.stairsUp(floors: 4), holding: .frontPocket),
        Segment(.still, seconds: 600, holding: .faceUp),
        Segment(.elevatorDown(floors: 4), holding: .inHand),
        Segment(.stroll, seconds: 240, holding: .bag),
        Segment(.run, seconds: 420, holding: .armband),
        ]
        let rest = 3600 - Scenario(name: "", segments: active).seconds
        return active + [Segment(.still, seconds: rest, holding: .faceUp)]
    }()

    /// The pedometer seed article's commute, for activity segmentation: walking 0–300 s, waiting at
    /// the stop 300–420 s, the bus (with its stops and red lights) 420–1500 s, walking 1500–1800 s.
    static let commute: [Segment] = [
        Segment(.walk, seconds: 300, holding: .frontPocket),
        Segment(.still, seconds: 120, holding: .inHand),
        Segment(.bus, seconds: 1080, holding: .inHand),
        Segment(.walk, seconds: 300, holding: .frontPocket),
    ]
}
