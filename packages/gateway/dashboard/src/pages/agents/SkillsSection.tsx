import { useQuery } from '@tanstack/react-query';
import { listSkills } from '../../api/catalog';
import { ErrorNotice } from '../../components/ErrorNotice';

export function SkillsSection() {
  const skills = useQuery({ queryKey: ['skills'], queryFn: ({ signal }) => listSkills(signal) });
  const data = skills.data;
  return (
    <section className="catalog-section" aria-labelledby="skills-heading">
      <h2 id="skills-heading">Skills</h2>
      <ErrorNotice error={skills.error} label="Could not list the skills" />
      {skills.isPending ? <p role="status">Loading the skills…</p> : null}
      {data === undefined || data.warnings.length === 0 ? null : (
        <div className="notice skill-warnings" role="note" aria-label="Skill warnings">
          <strong>
            {data.warnings.length} {data.warnings.length === 1 ? 'warning' : 'warnings'} while loading the skills:
          </strong>
          <ul>
            {data.warnings.map((warning) => (
              <li key={warning.message}>{warning.message}</li>
            ))}
          </ul>
        </div>
      )}
      {data !== undefined && data.skills.length === 0 ? (
        <p className="muted">
          No skills found. Add a folder with a <code>SKILL.md</code> under the workspace's skills folder.
        </p>
      ) : null}
      {data === undefined || data.skills.length === 0 ? null : (
        <table className="table">
          <caption className="visually-hidden">Skills with their arguments</caption>
          <thead>
            <tr>
              <th scope="col">Skill</th>
              <th scope="col">Description</th>
              <th scope="col">Arguments</th>
              <th scope="col">Allowed tools</th>
            </tr>
          </thead>
          <tbody>
            {data.skills.map((skill) => (
              <tr key={skill.name}>
                <th scope="row">
                  <code>{skill.name}</code>
                </th>
                <td>
                  {skill.description}
                  {skill.whenToUse === undefined ? null : <div className="muted small">When: {skill.whenToUse}</div>}
                </td>
                <td>
                  {skill.args.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    <ul className="plain-list">
                      {skill.args.map((argument) => (
                        <li key={argument.name}>
                          <code>{argument.name}</code> {argument.required ? '(required)' : '(optional)'}
                          {argument.default === undefined ? '' : `, default “${argument.default}”`}
                          {argument.description === undefined ? null : (
                            <div className="muted small">{argument.description}</div>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  {skill.allowedTools.length === 0 ? (
                    <span className="muted">any</span>
                  ) : (
                    skill.allowedTools.map((tool) => (
                      <code key={tool} className="tool-chip">
                        {tool}
                      </code>
                    ))
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
