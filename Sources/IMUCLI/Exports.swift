/// Command-line support shared by every tool.
@_exported import IMUCore
