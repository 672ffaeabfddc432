import { OSC_DEFAULT_TARGET, studioOscMessages, STUDIO_OSC_PREFIX } from './studio-control-messages';

export interface TouchDesignerKitFacts {
  songName: string;
  durationSeconds: number;
  bpm: number;
  beatsPerBar: number;
  fps: number;
  stems: readonly string[];
}

/** touchdesigner/osc-mapping.json: what the studio sends live, and which TouchDesigner operator takes it. */
export function touchDesignerOscMapping(facts: TouchDesignerKitFacts) {
  return {
    format: 'stemdeck-touchdesigner-osc',
    version: 1,
    receive: {
      protocol: 'udp',
      port: OSC_DEFAULT_TARGET.port,
      note: `The Stemdeck OSC bridge sends to ${OSC_DEFAULT_TARGET.host}:${OSC_DEFAULT_TARGET.port} until another target is applied under "OSC out" in the studio; give the OSC In operators the same port.`,
    },
    prefix: STUDIO_OSC_PREFIX,
    messages: studioOscMessages(facts.durationSeconds).map((message) => ({
      ...message,
      // A text argument (the transport's action) is kept by an OSC In DAT; numbers become channels of an OSC In CHOP.
      operator: message.args.some((arg) => arg.type === 's') ? 'OSC In DAT' : 'OSC In CHOP',
    })),
    tables: {
      'beats.csv': { columns: ['beat', 'time', 'bar', 'beat_in_bar'], bpm: facts.bpm, beatsPerBar: facts.beatsPerBar },
      'sections.csv': { columns: ['start', 'end', 'start_bar', 'end_bar', 'label', 'energy'] },
      'envelopes.csv': { columns: ['time', ...facts.stems], fps: facts.fps },
    },
  };
}

/** touchdesigner/README.txt: how to load the tables, in a TouchDesigner artist's words. */
export function touchDesignerReadme(facts: TouchDesignerKitFacts): string {
  const stems = facts.stems.join(', ');
  return `Stemdeck for TouchDesigner: ${facts.songName}
${'='.repeat(30 + facts.songName.length)}

Song: ${facts.durationSeconds.toFixed(3)} s, ${facts.bpm} BPM, ${facts.beatsPerBar} beats per bar.
Times are in seconds from the start of the song. Every file is plain CSV with a header row.

beats.csv      one row per beat: beat (from 0, the number /stemdeck/beat sends), time,
               bar (from 1), beat_in_bar (from 1; 1 is the downbeat).
               Beat n falls at n x 60 / ${facts.bpm} s, the grid the studio plays its beats on.
sections.csv   the song's sections from changes in its energy, bar by bar: start, end,
               start_bar, end_bar, label ("section 1 (low|mid|high)": the section's level
               against the song's typical bar), energy (0..1, 1 = the loudest section).
               Labels say how loud a section is, not whether it is a verse or a chorus.
envelopes.csv  ${facts.fps} rows per second: time, then the RMS level 0..1 of each stem
               (${stems}) over that 1/${facts.fps} s, after the studio mixer's volume, mute and solo
               (the same value /stemdeck/stem/<stem>_rms sends live).
osc-mapping.json  the OSC messages the studio sends while it plays, with their arguments
               and ranges, for live use beside these tables.

Loading a table
1. Drop the CSV file into the network, or add a File In DAT (or a Table DAT) and set its
   File parameter to the CSV. The first row holds the column names.
2. Add a DAT to CHOP with the DAT as its input: Output "Channel per Column",
   First Row is "Names", First Column is "Values". Each column becomes a channel
   (time, ${stems}), one sample per row.
3. envelopes.csv holds ${facts.fps} samples per second. TouchDesigner's default timeline also
   runs at ${facts.fps} frames per second, so sample n is frame n; in a project at another rate,
   resample the channels from ${facts.fps} to it (Resample CHOP). To follow the song's playhead
   instead, look the row up by time x ${facts.fps} (a Lookup CHOP, or
   op('envelopes')[int(seconds * ${facts.fps}) + 1, 'vocals'] in Python).
4. beats.csv and sections.csv are event lists: keep them as DATs and look up the row
   whose time is just below the playhead, or turn the time column into a CHOP as above.

Live OSC
Start the Stemdeck OSC bridge on the computer that runs the studio, turn on OSC output
under Create Music in the studio, and point it at this computer and port
(${OSC_DEFAULT_TARGET.host}:${OSC_DEFAULT_TARGET.port} by default). Add an OSC In CHOP on that port for the beats,
levels and pads, and an OSC In DAT for /stemdeck/transport (its action is text).
`;
}
