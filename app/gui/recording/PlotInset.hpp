#pragma once
// The plot drawn into a movie's frames: where it goes (bottom left, 3/8 of the frame wide and 2/7
// high; the colour legend keeps the bottom right and the status overlay the top left), the size
// the plot is rendered at (its text in proportion to the frame as on a 720-pixel view, a little
// smaller than on screen), and the drawing, opaque: nothing of the scene shows through the plot.
#include <QImage>
#include <QRect>
#include <QSize>

namespace clumplab::gui {

struct PlotInset {
  QRect box;       // in the frame [px]
  QSize plotSize;  // the plot is rendered at this size, then scaled into `box` [logical px]
};

PlotInset plotInsetFor(QSize frameSize);

// Draws `plot` into `frame` at plotInsetFor(frame.size()).box, covering what was there.
void drawPlotInset(QImage& frame, const QImage& plot);

}  // namespace clumplab::gui
