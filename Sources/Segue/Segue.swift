// The umbrella module: `import Segue` gives a program what it needs to render, without naming the modules
// under it: the job layer (`RenderJob`, `JobControl`, `BackendChoice`, sinks and streams), the built-in sample
// screens, and the core's names a program writes (effects, transitions, storyboards, `Pixmap`, `SegueError`,
// `Limits`...). The rest of the core (geometry, the draw list's parts, expressions, schedulers: about 600
// names) stays out of the program's namespace unless it asks with `import SegueCore`; values of those types
// still flow through the API without being named.
@_exported import SegueRender
@_exported import SegueSamples

// Effects and transitions.
@_exported import struct SegueCore.Effect
@_exported import enum SegueCore.EffectCatalog
@_exported import struct SegueCore.EffectOption
@_exported import struct SegueCore.EffectOptions
@_exported import enum SegueCore.OptionValue
@_exported import struct SegueCore.Transition
@_exported import enum SegueCore.Direction
@_exported import enum SegueCore.TimingCurve
@_exported import struct SegueCore.MotionBlur
// Storyboards and their problems.
@_exported import struct SegueCore.Storyboard
@_exported import struct SegueCore.StoryboardError
@_exported import struct SegueCore.JSONProblem
@_exported import struct SegueCore.InteractiveTrack
@_exported import struct SegueCore.ClipPlayback
@_exported import struct SegueCore.FrameSchedule
// Custom transitions (gl-transitions).
@_exported import struct SegueCore.ShaderTransition
@_exported import struct SegueCore.ShaderValue
@_exported import enum SegueCore.ShippedTransitions
// Frames, sizes and colours a job takes or gives.
@_exported import struct SegueCore.Pixmap
@_exported import struct SegueCore.YCbCrPlanes
@_exported import struct SegueCore.Size
@_exported import struct SegueCore.Color
@_exported import enum SegueCore.ColourSpace
// Distribution.
@_exported import struct SegueCore.Shard
@_exported import struct SegueCore.Chunk
// Errors, limits, and the renderer contract (for a program that brings its own renderer).
@_exported import struct SegueCore.SegueError
@_exported import protocol SegueCore.SegueErrorConvertible
@_exported import enum SegueCore.Limits
@_exported import enum SegueCore.PathName
@_exported import protocol SegueCore.Renderer
@_exported import struct SegueCore.RendererCapabilities
@_exported import enum SegueCore.RenderFrame
@_exported import protocol SegueCore.PreparedShader
// Writing files as segue writes them: whole or not at all, and errno in a user's words.
@_exported import enum SegueImageIO.FileWriter
@_exported import enum SegueImageIO.ErrnoReason
