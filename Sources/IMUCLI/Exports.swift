/// Command-line support shared by every tool: arguments, output, JSON, signals, source selection.
@_exported import IMUCore
