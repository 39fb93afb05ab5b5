#pragma once
// Clears the upper halves of the AVX registers (vzeroupper) on a CPU that has them; nothing
// elsewhere. Code built for SSE, as this project's is, runs several times slower while another
// library's AVX code has left them dirty without clearing them: after QApplication starts, libm's
// atan2 ran 12x slower and a mesh's fill and mass properties 5x (Qt 6.4, Debian 12, Xeon; the
// transition penalty of mixing VEX and legacy SSE instructions). A thread inherits the state of the
// thread that made it. ThreadPool calls this before each run's work and the simulation thread when
// it starts; it costs a few cycles.
namespace clumplab {

void clearUpperVectorState();

}  // namespace clumplab
