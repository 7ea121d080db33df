/// A printed count with its noun in the right number: "1 sample", "0 samples", "12 samples".
/// `plural` defaults to the singular with "s" ("reading" → "readings").
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
