// The umbrella module: `import Segue` gives a program what it needs to render, without naming the modules
// under it. The job layer (`RenderJob`, `SegueError`'s classification, `JobControl`, backends' choice), the
// core (effects, transitions, storyboards, `Pixmap`, `SegueError`) and the built-in sample screens.
@_exported import SegueCore
@_exported import SegueRender
@_exported import SegueSamples
