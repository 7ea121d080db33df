/// Computes a calibration from the six captured faces (the raw-sensor seed article's method,
/// extended with cross-axis misalignment).
///
/// Model (the same as docs/CONTRACTS.md §5, inverted): `raw = S · M · g + b`, with S = diag(scale),
/// M the misalignment with unit diagonal, g the true gravity reaction (±1 g on one axis per face).
/// - Bias and scale per axis from that axis's up and down faces: b = (up + down) / 2, s = (up − down) / 2.
/// - Misalignment: with u = (raw − b) / s, the least-squares M minimising Σ|u_f − M g_f|² over the
///   six faces is (Σ u_f g_fᵀ)(Σ g_f g_fᵀ)⁻¹; because the g_f are ±e_i, Σ g gᵀ = 2 I and the fit reduces
///   to column i = (u_{+i} − u_{−i}) / 2 (its diagonal is 1 by construction of s).
/// - Gyroscope bias: the mean rotation rate over every still capture (a still device turns at 0 rad/s).
/// Note: a surface that is not level shows up as misalignment; calibrate on a level table.
public enum SixPositionFit {
    public static func fit(_ captures: [Face: FaceCapture], key: String, sourceName: String,
                           created: String, measureQuality: Bool = true) throws(CalibrationError) -> Calibration {
        let missing = Face.guidedOrder.filter { captures[$0] == nil }
        guard missing.isEmpty else { throw .missingFaces(missing) }
        func mean(_ f: Face) -> Vector3 { captures[f]!.acceleration.mean }

        var bias = Vector3.zero, scale = Vector3.zero
        for axis in 0..<3 {
            let up = mean(Face.on(axis: axis, up: true))[axis]
            let down = mean(Face.on(axis: axis, up: false))[axis]
            bias[axis] = (up + down) / 2
            scale[axis] = (up - down) / 2
        }
        guard (0..<3).allSatisfy({ scale[$0] > 0.5 }) else {
            // An "up" face that reads less than its "down" face: the faces were mislabeled or the
            // sensor is broken; 0.5 is far outside any datasheet's scale tolerance.
            throw .implausible("scale per axis \(scale) is not near 1: were the faces placed as asked?")
        }
        func unscaled(_ raw: Vector3) -> Vector3 { (raw - bias) / scale }
        var columns: [Vector3] = []
        for axis in 0..<3 {
            let up = unscaled(mean(Face.on(axis: axis, up: true)))
            let down = unscaled(mean(Face.on(axis: axis, up: false)))
            columns.append((up - down) / 2)
        }
        let misalignment = Matrix3(columns: columns[0], columns[1], columns[2])

        var gyro = AxisStatistics()
        var accelNoiseSquares = Vector3.zero
        var quality = CalibrationQuality()
        quality.secondsPerFace = .infinity
        for f in Face.guidedOrder {
            let c = captures[f]!
            gyro.merge(c.rotationRate)
            let sd = c.acceleration.standardDeviation
            accelNoiseSquares += sd * sd
            quality.samples += c.acceleration.count
            quality.secondsPerFace = min(quality.secondsPerFace, c.seconds)
            quality.faceMeans[f] = c.acceleration.mean
        }
        // RMS over the six faces of the per-face standard deviation.
        let n = accelNoiseSquares / Face.count
        quality.accelerometerNoise = Vector3(n.x.squareRoot(), n.y.squareRoot(), n.z.squareRoot())
        var gyroNoise: Vector3?
        if gyro.count > 1 {
            var squares = Vector3.zero
            for f in Face.guidedOrder { let sd = captures[f]!.rotationRate.standardDeviation; squares += sd * sd }
            let m = squares / Face.count
            gyroNoise = Vector3(m.x.squareRoot(), m.y.squareRoot(), m.z.squareRoot())
        }
        quality.gyroscopeNoise = gyroNoise

        var calibration = Calibration(key: key, sourceName: sourceName, created: created,
                                      accelerometerBias: bias, accelerometerScale: scale, misalignment: misalignment,
                                      gyroscopeBias: gyro.count > 0 ? gyro.mean : nil, quality: quality)
        try calibration.validate()
        if measureQuality { calibration.quality = measureGravityError(calibration, captures: captures, base: quality) }
        return calibration
    }

    /// Fills the |g| error figures: RMS over the faces of (|mean| − 1) before and after correction.
    ///
    /// The fit has 12 parameters for 18 numbers, so judged on its own input it looks perfect (≈ 1e-8 g).
    /// "After" is therefore cross-validated when the captures kept their halves: fit on the first
    /// halves, measure on the second, and the other way round.
    static func measureGravityError(_ c: Calibration, captures: [Face: FaceCapture], base: CalibrationQuality) -> CalibrationQuality {
        var q = base
        var before = 0.0
        func norm(_ v: Vector3) -> Double { (v * v).sum().squareRoot() }
        for f in Face.guidedOrder {
            let raw = captures[f]!.acceleration.mean
            before += (norm(raw) - 1) * (norm(raw) - 1)
        }
        q.gravityErrorBefore = (before / Face.count).squareRoot()
        q.gravityErrorAfter = crossValidatedError(captures) ?? inSampleError(c, captures)
        let up = captures[.zUp]!.acceleration.mean
        q.faceUpNormBefore = norm(up)
        q.faceUpNormAfter = norm(c.correct(acceleration: up))
        return q
    }

    static func inSampleError(_ c: Calibration, _ captures: [Face: FaceCapture]) -> Double {
        var sum = 0.0
        for f in Face.guidedOrder {
            let n = c.correct(acceleration: captures[f]!.acceleration.mean)
            sum += ((n * n).sum().squareRoot() - 1) * ((n * n).sum().squareRoot() - 1)
        }
        return (sum / Face.count).squareRoot()
    }

    /// Two-fold cross-validated RMS |g| error; nil when a capture lacks its halves.
    static func crossValidatedError(_ captures: [Face: FaceCapture]) -> Double? {
        var sum = 0.0
        for (fitHalf, testHalf) in [(0, 1), (1, 0)] {
            var fitSet: [Face: FaceCapture] = [:], testSet: [Face: FaceCapture] = [:]
            for (f, c) in captures {
                guard let h = c.halves, h.first.count > 1, h.second.count > 1 else { return nil }
                let parts = [h.first, h.second]
                fitSet[f] = FaceCapture(face: f, acceleration: parts[fitHalf], rotationRate: AxisStatistics(), start: c.start, end: c.end)
                testSet[f] = FaceCapture(face: f, acceleration: parts[testHalf], rotationRate: AxisStatistics(), start: c.start, end: c.end)
            }
            guard let fold = try? fit(fitSet, key: "", sourceName: "", created: "", measureQuality: false) else { return nil }
            let e = inSampleError(fold, testSet)
            sum += e * e
        }
        return (sum / 2).squareRoot()
    }
}
