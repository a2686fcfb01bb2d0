// Package spark draws the bringup log's trend for the runs view's head: one cell per run, oldest first, scaled to
// the largest (▁ to █), a floor dotted (⣀ to ⣿), no count a gap; a labelled series ending in the newest run's
// value, and the legend of the marks it shows. It knows nothing of the analysis, of styles or of Bubble Tea.
package spark
