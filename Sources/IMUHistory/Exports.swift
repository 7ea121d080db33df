/// Persistent pedometer history: minute bins in SQLite, queries per interval and per local day.
/// See docs/history.md.
@_exported import Pedometer
