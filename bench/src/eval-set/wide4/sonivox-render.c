/*
 * Plays a Standard MIDI File through Sonivox EAS (the embedded General MIDI wavetable synthesizer Android
 * shipped) and writes 16-bit stereo WAV at the library's own rate (Debian's build: 22 050 Hz), two seconds past
 * the last event. Built by the fourth training family's generator (family.ts) against Debian's libsonivox-dev.
 *
 *   sonivox-render in.mid out.wav reverb-preset(-1 = none, 0-3) reverb-wet(0-32767) chorus(0/1)
 */
#include <eas.h>
#include <eas_reverb.h>
#include <eas_chorus.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int readAt(void *handle, void *buf, int offset, int size) {
  FILE *f = handle;
  if (fseek(f, offset, SEEK_SET) != 0) return 0;
  return (int)fread(buf, 1, (size_t)size, f);
}

static int fileSize(void *handle) {
  FILE *f = handle;
  long here = ftell(f);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, here, SEEK_SET);
  return (int)size;
}

static void put32(FILE *f, uint32_t v) { fputc(v & 255, f); fputc((v >> 8) & 255, f); fputc((v >> 16) & 255, f); fputc(v >> 24, f); }
static void put16(FILE *f, uint16_t v) { fputc(v & 255, f); fputc(v >> 8, f); }

static void writeHeader(FILE *f, uint32_t rate, uint32_t dataBytes) {
  fwrite("RIFF", 1, 4, f); put32(f, 36 + dataBytes); fwrite("WAVEfmt ", 1, 8, f);
  put32(f, 16); put16(f, 1); put16(f, 2); put32(f, rate); put32(f, rate * 4); put16(f, 4); put16(f, 16);
  fwrite("data", 1, 4, f); put32(f, dataBytes);
}

static int fail(const char *what, EAS_RESULT r) { fprintf(stderr, "sonivox-render: %s failed (%ld)\n", what, (long)r); return 1; }

int main(int argc, char **argv) {
  if (argc != 6) { fprintf(stderr, "usage: sonivox-render in.mid out.wav reverb-preset reverb-wet chorus\n"); return 2; }
  const S_EAS_LIB_CONFIG *config = EAS_Config();
  if (config->numChannels != 2) { fprintf(stderr, "sonivox-render: library renders %ld channels, wanted 2\n", (long)config->numChannels); return 1; }
  FILE *in = fopen(argv[1], "rb");
  if (!in) { perror(argv[1]); return 1; }
  FILE *out = fopen(argv[2], "wb");
  if (!out) { perror(argv[2]); return 1; }
  EAS_DATA_HANDLE eas;
  EAS_RESULT r = EAS_Init(&eas);
  if (r != EAS_SUCCESS) return fail("EAS_Init", r);
  int preset = atoi(argv[3]);
  EAS_SetParameter(eas, EAS_MODULE_REVERB, EAS_PARAM_REVERB_BYPASS, preset < 0);
  if (preset >= 0) {
    EAS_SetParameter(eas, EAS_MODULE_REVERB, EAS_PARAM_REVERB_PRESET, preset);
    EAS_SetParameter(eas, EAS_MODULE_REVERB, EAS_PARAM_REVERB_WET, atoi(argv[4]));
  }
  EAS_SetParameter(eas, EAS_MODULE_CHORUS, EAS_PARAM_CHORUS_BYPASS, atoi(argv[5]) == 0);
  EAS_FILE locator = { in, readAt, fileSize };
  EAS_HANDLE stream;
  if ((r = EAS_OpenFile(eas, &locator, &stream)) != EAS_SUCCESS) return fail("EAS_OpenFile", r);
  if ((r = EAS_Prepare(eas, stream)) != EAS_SUCCESS) return fail("EAS_Prepare", r);
  writeHeader(out, (uint32_t)config->sampleRate, 0);
  EAS_PCM *buffer = malloc(sizeof(EAS_PCM) * (size_t)config->mixBufferSize * 2);
  uint32_t dataBytes = 0;
  for (;;) {
    EAS_STATE state;
    EAS_State(eas, stream, &state);
    if (state == EAS_STATE_STOPPED || state == EAS_STATE_ERROR) break;
    EAS_I32 count = 0;
    if ((r = EAS_Render(eas, buffer, config->mixBufferSize, &count)) != EAS_SUCCESS) return fail("EAS_Render", r);
    fwrite(buffer, sizeof(EAS_PCM) * 2, (size_t)count, out);
    dataBytes += (uint32_t)(count * 4);
  }
  /* Two seconds more, so reverb tails and releases past the last event are kept. */
  for (EAS_I32 left = config->sampleRate * 2; left > 0;) {
    EAS_I32 count = 0;
    if ((r = EAS_Render(eas, buffer, config->mixBufferSize, &count)) != EAS_SUCCESS) return fail("EAS_Render", r);
    fwrite(buffer, sizeof(EAS_PCM) * 2, (size_t)count, out);
    dataBytes += (uint32_t)(count * 4);
    left -= count;
  }
  EAS_CloseFile(eas, stream);
  EAS_Shutdown(eas);
  fseek(out, 0, SEEK_SET);
  writeHeader(out, (uint32_t)config->sampleRate, dataBytes);
  fclose(out);
  fclose(in);
  return 0;
}
