extension Double {
    /// The number as a user would write it in an option or a setting: a whole number without
    /// ".0" ("from 1 to 8000", not "from 1.0 to 8000.0"; "retention_days = 0.0" reads as a
    /// fraction of a day), others as Swift prints them (0.01).
    public var asWritten: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
