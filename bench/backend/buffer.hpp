// A block of backend memory (host or device) that frees itself.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

namespace collbench::backend {

class Buffer {
 public:
  Buffer() = default;
  Buffer(void* data, std::uint64_t bytes, std::function<void(void*)> release)
      : data_(data), bytes_(bytes), release_(std::move(release)) {}
  Buffer(Buffer&& other) noexcept { swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    Buffer taken(std::move(other));  // releases what this buffer held when it goes
    swap(taken);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (data_ != nullptr && release_) release_(data_);
  }

  void* data() const { return data_; }
  std::uint64_t bytes() const { return bytes_; }
  // The address `offset` bytes into the buffer.
  void* at(std::uint64_t offset) const { return static_cast<char*>(data_) + offset; }

 private:
  void swap(Buffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    std::swap(release_, other.release_);
  }

  void* data_ = nullptr;
  std::uint64_t bytes_ = 0;
  std::function<void(void*)> release_;
};

}  // namespace collbench::backend
