import type { InputHTMLAttributes } from "react";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "className">;

/** A labelled text input of the admin forms; `onChange` receives the new value. */
export function Field(
  { label, value, onChange, ...input }: InputProps & {
    label: string;
    value: string;
    onChange: (value: string) => void;
  },
) {
  return (
    <label className="admin-field">
      <span>{label}</span>
      <input {...input} value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}
