#pragma once
// What the values a checkpoint copies hold on the heap, for the step-back history's memory cap.
#include <cstddef>

namespace clumplab {

// Memory the elements of a container of flat elements hold [bytes]: all a copy of it holds (a
// copied vector's capacity is its size).
template <class Container>
std::size_t elementBytes(const Container& c) {
  return c.size() * sizeof(typename Container::value_type);
}

}  // namespace clumplab
