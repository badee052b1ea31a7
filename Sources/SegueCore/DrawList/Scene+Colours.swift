extension Scene {
    /// The scene with every colour it gives as a number (layers' fills, gradient overlays' ends, shadows) passed
    /// through `convert`: how a job that works in another space than sRGB turns an effect's sRGB colours into
    /// its own (`ColourSpace`), so that `#ff0000` means the same red in either.
    public func mappingColours(_ convert: (Color) -> Color) -> Scene {
        var scene = self
        for i in scene.layers.indices {
            if case let .color(colour) = scene.layers[i].content { scene.layers[i].content = .color(convert(colour)) }
            if let overlay = scene.layers[i].overlay {
                scene.layers[i].overlay?.startColor = convert(overlay.startColor)
                scene.layers[i].overlay?.endColor = convert(overlay.endColor)
            }
            if let shadow = scene.layers[i].shadow { scene.layers[i].shadow?.color = convert(shadow.color) }
        }
        return scene
    }
}
