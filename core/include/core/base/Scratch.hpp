#pragma once
// Working memory that a step overwrites before it reads it: a member of this type is not copied
// with its owner (a copy starts with a default T), so that a checkpoint holds what the next steps
// depend on and not what they recompute. Moves keep it.
namespace clumplab {

template <class T>
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch& /*other*/) {}
  Scratch& operator=(const Scratch& /*other*/) { return *this; }
  Scratch(Scratch&&) noexcept = default;
  Scratch& operator=(Scratch&&) noexcept = default;
  ~Scratch() = default;

  T& operator*() { return value_; }
  const T& operator*() const { return value_; }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }

 private:
  T value_{};
};

}  // namespace clumplab
