import FoundationEssentials

/// The JSON form of a calibration: what `imu-calibrate --json` prints (docs/CONTRACTS.md §5) and
/// what the calibration store saves. Keys are written in a fixed order, numbers in their shortest
/// exact form, so files diff cleanly.
extension Calibration {
    /// Format version written into files; readers refuse newer major versions.
    public static let formatVersion = 1

    /// One JSON object. `pretty` puts each key on its own line (for files); otherwise one line.
    public func jsonText(pretty: Bool = false) -> String {
        let num = JSONText.number, str = JSONText.quoted
        func vec(_ v: Vector3) -> String { "[\(num(v.x)),\(num(v.y)),\(num(v.z))]" }
        var pairs: [(String, String)] = [
            ("accel_bias_g", vec(accelerometerBias)),
            ("accel_scale", vec(accelerometerScale)),
            ("accel_misalignment", "[" + [misalignment.rows.0, misalignment.rows.1, misalignment.rows.2].map(vec).joined(separator: ",") + "]"),
            ("gyro_bias_rad_s", gyroscopeBias.map(vec) ?? "null"),
            ("gravity_error_before_g", num(quality.gravityErrorBefore)),
            ("gravity_error_after_g", num(quality.gravityErrorAfter)),
            ("face_up_norm_before_g", num(quality.faceUpNormBefore)),
            ("face_up_norm_after_g", num(quality.faceUpNormAfter)),
            ("accel_noise_g", vec(quality.accelerometerNoise)),
            ("gyro_noise_rad_s", quality.gyroscopeNoise.map(vec) ?? "null"),
            ("seconds_per_face", num(quality.secondsPerFace)),
            ("samples", String(quality.samples)),
        ]
        let faces = Face.guidedOrder.compactMap { f in quality.faceMeans[f].map { "\(str(f.rawValue)):\(vec($0))" } }
        pairs.append(("face_means_g", "{" + faces.joined(separator: ",") + "}"))
        pairs += [("key", str(key)), ("source", str(sourceName)), ("created", str(created)),
                  ("version", String(Self.formatVersion))]
        if pretty {
            return "{\n" + pairs.map { "  \(str($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
        }
        return "{" + pairs.map { "\(str($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// Reads the JSON form back. `path` only names the file in errors.
    public init(jsonData data: Data, path: String) throws(CalibrationError) {
        func fail(_ reason: String) -> CalibrationError { .malformedFile(path: path, reason: reason) }
        let parsed: JSONValue
        do { parsed = try JSONValue.parse(data) } catch {
            throw fail("invalid JSON: \(error)")
        }
        guard let o = parsed.object else { throw fail("not a JSON object") }
        func number(_ v: JSONValue?) -> Double? { v?.number }
        // An integer from 1 to this tool's version: not "1", 0, −1 or 1.5.
        guard let version = number(o["version"]), version == version.rounded(), version >= 1 else {
            throw fail("\"version\" must be a whole number from 1 (this tool writes \(Self.formatVersion))")
        }
        guard version <= Double(Self.formatVersion) else {
            throw fail("format version \(version) is newer than this tool understands (\(Self.formatVersion))")
        }
        func vector(_ name: String, required: Bool = true) throws(CalibrationError) -> Vector3? {
            guard let raw = o[name], !raw.isNull else {
                if required { throw fail("missing \"\(name)\"") }
                return nil
            }
            guard let a = raw.array, a.count == 3, let x = number(a[0]), let y = number(a[1]), let z = number(a[2]) else {
                throw fail("\"\(name)\" must be an array of three numbers")
            }
            return Vector3(x, y, z)
        }
        let bias = try vector("accel_bias_g")!, scale = try vector("accel_scale")!
        var matrix = Matrix3.identity
        if let raw = o["accel_misalignment"], !raw.isNull {
            let rows = raw.array?.compactMap(\.array) ?? []
            guard rows.count == 3, let m = Matrix3(rows.map { $0.compactMap(number) }) else {
                throw fail("\"accel_misalignment\" must be three rows of three numbers")
            }
            matrix = m
        }
        var quality = CalibrationQuality()
        quality.gravityErrorBefore = number(o["gravity_error_before_g"]) ?? 0
        quality.gravityErrorAfter = number(o["gravity_error_after_g"]) ?? 0
        quality.faceUpNormBefore = number(o["face_up_norm_before_g"]) ?? 0
        quality.faceUpNormAfter = number(o["face_up_norm_after_g"]) ?? 0
        quality.accelerometerNoise = try vector("accel_noise_g", required: false) ?? .zero
        quality.gyroscopeNoise = try vector("gyro_noise_rad_s", required: false)
        quality.secondsPerFace = number(o["seconds_per_face"]) ?? 0
        if let samples = number(o["samples"]) {
            // Range-checked before the conversion: 1e19 would trap Int(_:). 1e10 samples is
            // more than a day at 100 kHz, far beyond any calibration session.
            guard samples >= 0, samples <= 1e10, samples == samples.rounded() else {
                throw fail("\"samples\" must be a whole number from 0 to 1e10, got \(samples)")
            }
            quality.samples = Int(samples)
        }
        if let faces = o["face_means_g"]?.object {
            for (name, value) in faces {
                guard let face = Face(rawValue: name), let a = value.array, a.count == 3,
                      let x = number(a[0]), let y = number(a[1]), let z = number(a[2]) else { continue }
                quality.faceMeans[face] = Vector3(x, y, z)
            }
        }
        self.init(key: o["key"]?.string ?? "", sourceName: o["source"]?.string ?? "",
                  created: o["created"]?.string ?? "", accelerometerBias: bias, accelerometerScale: scale,
                  misalignment: matrix, gyroscopeBias: try vector("gyro_bias_rad_s", required: false), quality: quality)
        do { try validate() } catch { throw fail(error.description) }
    }
}
