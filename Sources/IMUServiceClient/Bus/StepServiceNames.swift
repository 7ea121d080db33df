/// The names of the step service on D-Bus (data/io.github.imukit.StepService1.xml documents the
/// interface). Reverse-DNS of the project's home, with the major version in the name as the D-Bus
/// specification recommends ("include the major version of the interface in the name").
public enum StepServiceNames {
    /// Well-known bus name the daemon owns.
    public static let busName = "io.github.imukit.StepService1"
    /// The one object, versioned like the interface.
    public static let objectPath = "/io/github/imukit/StepService1"
    /// The interface with the queries, the controls and the properties.
    public static let interface = "io.github.imukit.StepService1"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let peer = "org.freedesktop.DBus.Peer"

    /// Error names the daemon replies with.
    public enum Errors {
        /// The step engine did not answer within the method deadline.
        public static let timedOut = "io.github.imukit.StepService1.Error.TimedOut"
        /// Reset/Pause/Resume from a caller that is neither root nor in group `imukit`.
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        /// Bad arguments (interval ends before it starts, unknown time zone, …).
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        /// The history could not be read.
        public static let storage = "io.github.imukit.StepService1.Error.Storage"
    }
}

/// The wire form of one interval's totals, `(xxxdxxd)`: start and end in microseconds since
/// 1970 UTC, steps, distance in metres, floors up, floors down, active seconds.
public enum TotalsWire {
    public static let signature = "xxxdxxd"
}

/// The wire form of one activity segment, `(xxss)`: start and end in microseconds since 1970 UTC,
/// activity ("walking", …) and confidence ("low", "medium", "high").
public enum ActivityWire {
    public static let signature = "xxss"
}
