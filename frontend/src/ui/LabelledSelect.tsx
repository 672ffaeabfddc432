import { Stack, Text } from '@chakra-ui/react';

/** The panels' text fields and selects: one thin border, transparent on the card. */
export const fieldStyle = { padding: '6px 8px', borderRadius: 6, background: 'transparent', border: '1px solid var(--chakra-colors-border)' };

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

/** A native select under its label (the label names it for screen readers and tests), styled like the panels' fields. */
export function LabelledSelect<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: T;
  options: readonly SelectOption<T>[];
  onChange: (value: T) => void;
}) {
  return (
    <Stack gap="1">
      <label htmlFor={id}>
        <Text fontSize="sm">{label}</Text>
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as T)} style={fieldStyle}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Stack>
  );
}
