extension Scenario {
    /// The six-position calibration session: the device rests still on each face for
    /// `secondsPerFace`, turned from one face to the next by a `transitionSeconds` transition
    /// (picked up, rotated with a consistent gyro, set down).
    ///
    /// - Parameters:
    ///   - order: faces in the order performed; repeat or omit faces to simulate mistakes.
    ///   - shakeFace: index into `order` of a rest during which the device is shaken (nil = none).
    ///   - shakeG: peak acceleration of that shaking, g.
    public static func sixPosition(secondsPerFace: Double = 10, transitionSeconds: Double = 3,
                                   order: [FaceUp] = FaceUp.allCases, shakeFace: Int? = nil,
                                   shakeG: Double = 0.3) -> Scenario {
        var segments: [Segment] = []
        for (i, face) in order.enumerated() {
            if i > 0 { segments.append(Segment(.transition, seconds: transitionSeconds)) }
            segments.append(Segment(.face(face), seconds: secondsPerFace, shake: i == shakeFace ? shakeG : 0))
        }
        return Scenario(name: "six-position", segments: segments)
    }
}
