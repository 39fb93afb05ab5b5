#pragma once
// Writes video frames to a movie: MP4 (H.264, yuv420p, CRF), WebM (VP9), GIF (palette generated
// from the whole clip) through an `ffmpeg` process fed raw RGB frames on a pipe, or a PNG sequence
// written directly (no ffmpeg needed).
#include <QImage>
#include <QProcess>
#include <QSize>
#include <QString>
#include <memory>

namespace clumplab::gui {

enum class MovieFormat { Mp4, WebM, Gif, PngSequence };

struct MovieSettings {
  QString path;  // the movie file, or the folder of a PNG sequence
  MovieFormat format = MovieFormat::Mp4;
  int framesPerSecond = 30;
  int crf = 18;                               // quality of MP4 (0 best .. 51) and WebM (0 .. 63)
  QString ffmpeg = QStringLiteral("ffmpeg");  // program name or path

  // The format a path asks for: .mp4, .webm, .gif, or anything else (a folder, a .png pattern)
  // as a PNG sequence.
  static MovieFormat formatFor(const QString& path);
  // The formats that go through ffmpeg (all but the PNG sequence).
  bool needsFfmpeg() const { return format != MovieFormat::PngSequence; }
  // The same movie as a PNG sequence, in a folder beside the movie named after it ("demo.mp4" ->
  // "demo-frames"): what is offered when ffmpeg is missing.
  MovieSettings asPngSequence() const;
};

// The ffmpeg program to run: `program` found on PATH, or `program` itself when it is an absolute
// path to an executable; "" when there is none.
QString findFfmpeg(const QString& program);

// At most this many bytes of frames wait in the pipe for ffmpeg (at least two frames): a slow
// encoder (VP9, a 4K frame of 25 MB) makes the recording wait instead of filling memory.
constexpr qint64 kMaxFramesWaitingBytes = 64LL * 1024 * 1024;

class MovieEncoder {
 public:
  explicit MovieEncoder(MovieSettings settings);
  ~MovieEncoder();  // finishes the movie if still open

  // Opens the movie for frames of `size` (odd sizes lose a pixel row/column: H.264 needs even
  // ones). Returns "" or a message naming the file or the missing ffmpeg.
  QString start(QSize size);
  // Adds a frame (scaled to the movie's size if it differs); "" or an error.
  QString addFrame(const QImage& frame);
  // Closes the movie and waits for ffmpeg; "" or an error with ffmpeg's last words.
  QString finish();

  int framesWritten() const { return frames_; }
  // Bytes of frames handed to ffmpeg that it has not read yet.
  qint64 bytesWaiting() const;
  QSize frameSize() const { return size_; }
  // Bytes written so far (the movie file, or the PNG files).
  qint64 bytesOnDisk() const;
  const MovieSettings& settings() const { return settings_; }

 private:
  MovieSettings settings_;
  std::unique_ptr<QProcess> ffmpeg_;
  QString partialPath_;  // what ffmpeg writes, renamed to the movie when complete
  QSize size_;
  int frames_ = 0;
  qint64 pngBytes_ = 0;
  bool open_ = false;
};

}  // namespace clumplab::gui
